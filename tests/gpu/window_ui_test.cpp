// GPU tier: the window's control panel, A/B compare, screenshot key, chain edits and shader hot
// reload, in-process under an X server (xvfb-run), validation on. The scene is held still
// (fixed camera, no animation) so images from different runs and frames can be compared exactly.
#include "preset.h"
#include "window_test_util.h"

#include "passes/tonemap_curves.h"

#include "common/metrics.h"
#include "common/reference.h"
#include "glfw_window.h"
#include "graph/executor.h"
#include "io/image_files.h"
#include "passes/view_pass.h"
#include "runtime/frame_ring.h"
#include "scene/gltf_scene.h"
#include "ui/imgui_layer.h"
#include "ui/layout.h"

#include <imgui.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>

using namespace filterlab;
using namespace filterlab::test;

namespace {

runtime::RunOptions still_run(uint32_t width, uint32_t height, const std::string& chain) {
  runtime::RunOptions run = validated_run(width, height);
  run.chain = chain;
  run.scene.orbit_camera = false;
  run.scene.animate_objects = false;
  return run;
}

// Mean |a-b| over RGB in a rectangle.
double mean_difference(const io::ImageU8& a, const io::ImageU8& b, uint32_t x0, uint32_t y0, uint32_t x1,
                       uint32_t y1) {
  double sum = 0;
  for (uint32_t y = y0; y < y1; ++y)
    for (uint32_t x = x0; x < x1; ++x)
      for (uint32_t c = 0; c < 3; ++c) {
        const size_t i = (size_t(y) * a.width + x) * 4 + c;
        sum += std::abs(int(a.rgba[i]) - int(b.rgba[i]));
      }
  return sum / (3.0 * (x1 - x0) * (y1 - y0));
}

// The metrics the compare pass computes, on the CPU from the images themselves: over R, G, B.
common::ImageMetrics cpu_metrics(const io::ImageF& a, const io::ImageF& b) {
  return common::image_metrics(a, b, 3);
}

// The viewport's view of an HDR image on the CPU (io::hdr_to_display, as --capture writes it):
// with a channel picked, that channel alone as gray.
io::ImageU8 cpu_view(const io::ImageF& hdr, float exposure, passes::ViewSettings::Channel channel) {
  using Channel = passes::ViewSettings::Channel;
  if (channel == Channel::All) return passes::hdr_to_display(hdr, exposure);
  const uint32_t c = channel == Channel::R ? 0 : channel == Channel::G ? 1 : 2;
  io::ImageF gray{hdr.width, hdr.height, 1, {}};
  for (size_t p = 0; p < size_t(hdr.width) * hdr.height; ++p)
    gray.pixels.push_back(hdr.pixels[p * hdr.channels + c]);
  return passes::hdr_to_display(gray, exposure);
}

// The flip view's screenshot against `compare --flip-map`'s magma PNG of the same pair, above the
// view's label (a band along the bottom edge): the GPU's map is within 1e-3 of the reference's
// (FlipPassTest), so a pixel at a magma entry's edge may round to the next entry: at most 0.1% of
// them, and a neighbouring entry (those differ by at most 3 levels a channel).
void expect_flip_view_is_the_map(const io::ImageU8& shot, const io::ImageU8& map) {
  ASSERT_EQ(shot.width, map.width);
  ASSERT_EQ(shot.height, map.height);
  constexpr uint32_t kLabelBand = 36;
  size_t different = 0, far = 0, pixels = 0;
  for (uint32_t y = 0; y < shot.height - kLabelBand; ++y)
    for (uint32_t x = 0; x < shot.width; ++x, ++pixels) {
      int largest = 0;
      for (uint32_t c = 0; c < 3; ++c) {
        const size_t i = (size_t(y) * shot.width + x) * 4 + c;
        largest = std::max(largest, std::abs(int(shot.rgba[i]) - int(map.rgba[i])));
      }
      different += largest > 0;
      far += largest > 3;
    }
  EXPECT_LE(double(different), 0.001 * double(pixels)) << different << " pixels differ";
  EXPECT_EQ(far, 0u);
}

}  // namespace

TEST(WindowUi, PanelIsDrawnOverTheSceneThroughResizesAndAMinimize) {
  SKIP_WITHOUT_DISPLAY();
  const std::string dir = temp_dir("window-ui");
  runtime::RunOptions run = still_run(640, 480, "gaussian.comp.separable_shared:radius=2");
  run.captures = {{"final", dir + "/final.png"}};  // the graph's image: the viewport's size
  app::WindowOptions window;
  window.frames = 130;
  window.hot_reload = false;
  window.screenshot = dir + "/ui.png";
  window.test_resizes = {{40, {900, 700}}, {80, {800, 600}}};
  window.test_minimize_at = 60;
  // It opens 640 wide, where the columns start collapsed: opened, as a click on their strips does.
  window.on_frame = [](app::FrameProbe& p) {
    if (p.frame == 0) p.state.columns = app::Columns{};
  };
  app::WindowResult with_ui;
  const std::string messages = with_stderr_captured([&] { with_ui = app::run_window_app(run, window); });
  EXPECT_EQ(with_ui.validation_messages, 0u);
  EXPECT_EQ(messages.find("validation"), std::string::npos) << messages;
  EXPECT_EQ(with_ui.frames, 130u);
  EXPECT_EQ(with_ui.ui_frames, 130u);
  EXPECT_EQ(with_ui.builds.size(), 3u);
  // The UI's framebuffer is made again only when the graph's images may be new (start, resizes),
  // not every frame.
  EXPECT_EQ(with_ui.graph_prepares, 3u);
  EXPECT_EQ(with_ui.ui_framebuffers, with_ui.graph_prepares);
  EXPECT_FALSE(with_ui.minimized_wait_frames.empty());
  ASSERT_TRUE(with_ui.screenshot_written);
  // --screenshot FILE also writes FILE.json, the sidecar: the chain, the timings of the last frames.
  std::ifstream sidecar(dir + "/ui.json");
  ASSERT_TRUE(sidecar.good());
  const nlohmann::json side = nlohmann::json::parse(sidecar);
  EXPECT_EQ(side.at("png"), "ui.png");
  EXPECT_EQ(side.at("frame"), 129);
  EXPECT_FALSE(side.at("timings").at("passes").empty());
  // It shows the window with its panel, and says so (it said "without the panel"; issue #54).
  EXPECT_EQ(side.at("png_shows"), "the window as presented, the control panel included");

  // The window: the controls column, the viewport, the timings column (ui/layout.h). The viewport
  // holds the graph's image exactly, 1:1: nothing is drawn over the picture.
  const app::WindowLayout layout = app::window_layout(800, 600, app::Columns{}, true);
  const io::ImageU8 a = io::read_png(dir + "/ui.png"), final_image = io::read_png(dir + "/final.png");
  ASSERT_EQ(a.width, 800u);
  ASSERT_EQ(a.height, 600u);
  ASSERT_EQ(final_image.width, uint32_t(layout.viewport.w));
  ASSERT_EQ(final_image.height, 600u);
  EXPECT_GT(green_variance(a), 10.0);
  size_t differ = 0;
  for (uint32_t y = 0; y < 600; ++y)
    for (uint32_t x = 0; x < final_image.width; ++x)
      for (uint32_t c = 0; c < 3; ++c)
        differ += a.rgba[(size_t(y) * 800 + x + uint32_t(layout.viewport.x)) * 4 + c] !=
                  final_image.rgba[(size_t(y) * final_image.width + x) * 4 + c];
  EXPECT_EQ(differ, 0u) << "the viewport shows the graph's image and nothing over it";

  // Without the columns (Tab, --no-ui) the viewport is the window: the graph renders at its size.
  window.show_ui = false;
  window.screenshot = dir + "/no-ui.png";
  app::WindowResult without;
  with_stderr_captured([&] { without = app::run_window_app(run, window); });
  EXPECT_EQ(without.validation_messages, 0u);
  const io::ImageU8 b = io::read_png(dir + "/no-ui.png"), full = io::read_png(dir + "/final.png");
  ASSERT_EQ(b.width, 800u);
  EXPECT_EQ(full.width, 800u);
  EXPECT_EQ(mean_difference(b, full, 0, 0, 800, 600), 0.0);
}

namespace {

// The CPU model of what the window shows of `run --image` in a viewport of w x h: the picture's
// linear values fit with the aspect kept between black bars (bilinear, texel centres at
// half-integers, clamped, as the still image pass samples), shown with tonemap none (a PNG's
// default) and encoded to 8-bit sRGB.
io::ImageU8 fit_model(const io::ImageF& picture, uint32_t w, uint32_t h) {
  io::ImageF out{w, h, 4, std::vector<float>(size_t(w) * h * 4, 0.0f)};
  const float scale = std::min(float(w) / float(picture.width), float(h) / float(picture.height));
  const float ox = 0.5f * (float(w) - scale * float(picture.width));
  const float oy = 0.5f * (float(h) - scale * float(picture.height));
  auto texel = [&](int x, int y, uint32_t c) {
    return picture.at(uint32_t(std::clamp(x, 0, int(picture.width) - 1)),
                      uint32_t(std::clamp(y, 0, int(picture.height) - 1)), c);
  };
  for (uint32_t y = 0; y < h; ++y)
    for (uint32_t x = 0; x < w; ++x) {
      const float ax = (float(x) + 0.5f - ox) / scale, ay = (float(y) + 0.5f - oy) / scale;
      out.pixels[(size_t(y) * w + x) * 4 + 3] = 1.0f;
      if (ax < 0 || ay < 0 || ax >= float(picture.width) || ay >= float(picture.height)) continue;
      const float fx = ax - 0.5f, fy = ay - 0.5f;
      const int x0 = int(std::floor(fx)), y0 = int(std::floor(fy));
      const float tx = fx - float(x0), ty = fy - float(y0);
      for (uint32_t c = 0; c < 3; ++c)
        out.pixels[(size_t(y) * w + x) * 4 + c] =
            (1 - ty) * ((1 - tx) * texel(x0, y0, c) + tx * texel(x0 + 1, y0, c)) +
            ty * ((1 - tx) * texel(x0, y0 + 1, c) + tx * texel(x0 + 1, y0 + 1, c));
    }
  return passes::hdr_to_display(out, 1.0f, passes::Tonemapper::None);
}

// The largest difference in levels between the viewport region of `shot` at (vx, 0) and `model`,
// leaving out a one-pixel border (where the fit's edge texels round either way).
int worst_level(const io::ImageU8& shot, uint32_t vx, const io::ImageU8& model) {
  int worst = 0;
  for (uint32_t y = 1; y + 1 < model.height; ++y)
    for (uint32_t x = 1; x + 1 < model.width; ++x)
      for (uint32_t c = 0; c < 3; ++c)
        worst = std::max(worst, std::abs(int(shot.rgba[(size_t(y) * shot.width + vx + x) * 4 + c]) -
                                         int(model.rgba[(size_t(y) * model.width + x) * 4 + c])));
  return worst;
}

}  // namespace

// `run --image` in the window, 960x540, both columns open: the viewport between them shows the
// picture fit to the viewport, within 2 levels of the CPU model at every pixel but a one-pixel
// border; with --no-ui, the same at the window's full size. Nothing is drawn over the picture
// (Xvfb's pointer sits mid-screen, over the viewport: it changes nothing).
TEST(WindowUi, AStillImageFillsTheViewportAndNothingCoversIt) {
  SKIP_WITHOUT_DISPLAY();
  const std::string dir = temp_dir("window-fit");
  // Flat regions, a step, a ramp, a line and an opaque square on transparent black (filterlab reads
  // a PNG's colour premultiplied and shows it over black), beside noise.
  for (const auto& [name, stored] : {std::pair{"structured", common::structured_image(300, 200)},
                                     std::pair{"noise", common::random_image(300, 200, 3, 17)}})
    io::write_image_file(dir + "/" + name + ".png", stored, io::Encoding::Raw);
  for (const char* name : {"structured", "noise"}) {
    const std::string photo = dir + "/" + name + ".png";
    const io::ImageF picture = io::read_image_file(photo, io::Encoding::Srgb);
    for (const bool show_ui : {true, false}) {
      const std::string shot = dir + (show_ui ? "/ui.png" : "/no-ui.png");
      const auto r = test::run_binary("run --validation --image " + photo + " --chain copy --size 960x540 " +
                                      "--frames 3 " + (show_ui ? "" : "--no-ui ") + "--screenshot " + shot);
      ASSERT_EQ(r.exit_code, 0) << r.output;
      const app::WindowLayout layout = app::window_layout(960, 540, app::initial_columns(960), show_ui);
      const io::ImageU8 window_image = io::read_png(shot);
      ASSERT_EQ(window_image.width, 960u);
      const io::ImageU8 model = fit_model(picture, uint32_t(layout.viewport.w), uint32_t(layout.viewport.h));
      EXPECT_LE(worst_level(window_image, uint32_t(layout.viewport.x), model), 2)
          << name << (show_ui ? ", columns" : ", --no-ui");
      if (show_ui) {  // at least 30% of the window is picture
        EXPECT_GE(layout.viewport.w * layout.viewport.h, 0.30f * 960 * 540);
      }
    }
  }
}

// The pixel inspector, pinned on a pixel by the window script's step (as a right click pins it):
// A's and B's values there equal the captured images' at that pixel, linear within 1e-6 (fp32
// outputs) and displayed within one level, in the last frame's readback and in the sidecar.
TEST(WindowUi, TheInspectorReadsWhatTheCapturesHoldAtItsPixel) {
  SKIP_WITHOUT_DISPLAY();
  const std::string dir = temp_dir("window-inspect");
  runtime::RunOptions run = still_run(203, 117, "gaussian.comp.separable_shared:radius=4:precision=fp32");
  run.captures = {{"gaussian", dir + "/a.pfm"},
                  {"b.copy", dir + "/b.pfm"},
                  {"final", dir + "/a.png"},
                  {"b.final", dir + "/b.png"}};
  app::WindowOptions window = presentation_only();  // the viewport is the window: the captures' size
  window.frames = 5;
  window.compare_chain = "copy:precision=fp32";
  window.test_inspect_at = {{2, 37, 55}};
  window.screenshot = dir + "/shot.png";
  const app::WindowResult r = run_window_without_messages(run, window);
  ASSERT_TRUE(r.last_pixel);
  EXPECT_EQ(r.last_pixel->x, 37);
  EXPECT_EQ(r.last_pixel->y, 55);
  EXPECT_EQ(r.last_pixel->frame, 4u);
  const io::ImageF a = io::read_pfm(dir + "/a.pfm"), b = io::read_pfm(dir + "/b.pfm");
  const io::ImageU8 a8 = io::read_png(dir + "/a.png"), b8 = io::read_png(dir + "/b.png");
  ASSERT_EQ(a.width, 203u);
  std::ifstream in(dir + "/shot.json");
  const nlohmann::json side = nlohmann::json::parse(in).at("inspector");
  EXPECT_EQ(side.at("x"), 37);
  EXPECT_TRUE(side.at("pinned").get<bool>());
  bool differ = false;
  for (uint32_t c = 0; c < 3; ++c) {
    EXPECT_NEAR(r.last_pixel->rgba[0][c], a.at(37, 55, c), 1e-6) << c;
    EXPECT_NEAR(r.last_pixel->rgba[1][c], b.at(37, 55, c), 1e-6) << c;
    const size_t at = (size_t(55) * 203 + 37) * 4 + c;
    EXPECT_NEAR(r.last_pixel->rgba[2][c] * 255, a8.rgba[at], 1.0) << c;
    EXPECT_NEAR(r.last_pixel->rgba[3][c] * 255, b8.rgba[at], 1.0) << c;
    EXPECT_NEAR(side.at("a_linear")[c].get<double>(), a.at(37, 55, c), 1e-6) << c;
    EXPECT_NEAR(side.at("b_displayed")[c].get<double>(), b8.rgba[at], 1.0) << c;
    differ |= a.at(37, 55, c) != b.at(37, 55, c);
  }
  EXPECT_TRUE(differ) << "a blur and a copy should differ at the pixel";
}

// The side-by-side view shows the middle halves of A and B: the magnifier's values (the cursor's
// pixel) and the pinned pixel are of the A and B pixels shown there, not of the display's column.
TEST(WindowUi, SideBySideInspectsThePixelsItShows) {
  SKIP_WITHOUT_DISPLAY();
  const std::string dir = temp_dir("window-inspect-side");
  runtime::RunOptions run = still_run(203, 117, "gaussian.comp.separable_shared:radius=4:precision=fp32");
  run.captures = {{"gaussian", dir + "/a.pfm"}, {"b.copy", dir + "/b.pfm"}};
  app::WindowOptions window = presentation_only();
  window.frames = 5;
  window.compare_chain = "copy:precision=fp32";
  window.compare_mode = passes::CompareSettings::Mode::SideBySide;
  window.test_inspect_at = {{1, 150, 40}};  // in B's half: B's column 150 + 203 / 4 - 203 / 2 = 99
  window.on_frame = [](app::FrameProbe& p) {
    p.state.compare.magnifier = true;
    p.state.compare.cursor_x = 10;  // in A's half: A's column 10 + 203 / 4 = 60
    p.state.compare.cursor_y = 55;
  };
  const app::WindowResult r = run_window_without_messages(run, window);
  ASSERT_TRUE(r.last_pixel && r.last_cursor_pixel);
  EXPECT_EQ(r.last_cursor_pixel->x, 60);
  EXPECT_EQ(r.last_cursor_pixel->y, 55);
  EXPECT_EQ(r.last_pixel->x, 99);
  EXPECT_EQ(r.last_pixel->y, 40);
  const io::ImageF a = io::read_pfm(dir + "/a.pfm"), b = io::read_pfm(dir + "/b.pfm");
  for (uint32_t c = 0; c < 3; ++c) {
    EXPECT_NEAR(r.last_cursor_pixel->rgba[0][c], a.at(60, 55, c), 1e-6) << c;
    EXPECT_NEAR(r.last_cursor_pixel->rgba[1][c], b.at(60, 55, c), 1e-6) << c;
    EXPECT_NEAR(r.last_pixel->rgba[0][c], a.at(99, 40, c), 1e-6) << c;
    EXPECT_NEAR(r.last_pixel->rgba[1][c], b.at(99, 40, c), 1e-6) << c;
  }
}

// Zoomed in, the viewport repeats each pixel of the shown region zoom x zoom times (nearest,
// exactly) and shows the backdrop in the sliver past its whole pixels; nothing else changes.
TEST(WindowUi, AZoomedViewportRepeatsEachPixelOfTheShownRegion) {
  SKIP_WITHOUT_DISPLAY();
  const std::string dir = temp_dir("window-zoom");
  runtime::RunOptions run = still_run(203, 117, "copy");
  run.captures = {{"final", dir + "/final.png"}};
  app::WindowOptions window = presentation_only();  // the viewport is the window
  window.frames = 4;
  window.screenshot = dir + "/zoom.png";
  const app::ViewZoom zoom{4, 60, 50};
  window.on_frame = [&](app::FrameProbe& p) { p.state.zoom = zoom; };
  const app::WindowResult r = run_window_without_messages(run, window);
  const io::ImageU8 shot = io::read_png(dir + "/zoom.png"), final_image = io::read_png(dir + "/final.png");
  ASSERT_EQ(shot.width, 203u);
  ASSERT_EQ(final_image.width, 203u);
  const app::ShownRegion shown = app::shown_region(203, 117, zoom);
  size_t wrong = 0, backdrop = 0;
  for (uint32_t y = 0; y < 117; ++y)
    for (uint32_t x = 0; x < 203; ++x) {
      const uint8_t* got = &shot.rgba[(size_t(y) * 203 + x) * 4];
      if (x >= shown.w * 4 || y >= shown.h * 4) {  // the sliver: one colour
        backdrop += got[0] == shot.rgba[(size_t(116) * 203 + 202) * 4];
        continue;
      }
      const uint8_t* want =
          &final_image.rgba[(size_t(shown.y + int32_t(y / 4)) * 203 + uint32_t(shown.x) + x / 4) * 4];
      for (int c = 0; c < 3; ++c) wrong += got[c] != want[c];
    }
  EXPECT_EQ(wrong, 0u);
  EXPECT_GT(backdrop, 0u);
}

TEST(WindowUi, CompareOfAConfigurationWithItselfIsExactlyZero) {
  SKIP_WITHOUT_DISPLAY();
  runtime::RunOptions run = still_run(197, 131, "gaussian.comp.tiled:radius=3");
  app::WindowOptions window;
  window.frames = 6;
  window.hot_reload = false;
  window.compare_chain = run.chain;
  const app::WindowResult r = run_window_without_messages(run, window);
  ASSERT_TRUE(r.last_metrics);
  EXPECT_EQ(r.last_metrics->frame, 5u);
  EXPECT_EQ(r.last_metrics->values.mse, 0.0);
  EXPECT_EQ(r.last_metrics->values.max_abs, 0.0);
  EXPECT_TRUE(std::isinf(r.last_metrics->values.psnr));
}

TEST(WindowUi, CompareMetricsEqualTheCpuMetricsOfTheTwoOutputs) {
  SKIP_WITHOUT_DISPLAY();
  const std::string dir = temp_dir("window-ab");
  runtime::RunOptions run = still_run(203, 117, "gaussian.comp.separable_shared:radius=4:precision=fp32");
  run.captures = {{"gaussian", dir + "/a.pfm"}, {"b.copy", dir + "/b.pfm"}};
  app::WindowOptions window;
  window.frames = 5;
  window.hot_reload = false;
  window.compare_chain = "copy:precision=fp32";
  const app::WindowResult r = run_window_without_messages(run, window);
  ASSERT_TRUE(r.last_metrics);
  const common::ImageMetrics cpu = cpu_metrics(io::read_pfm(dir + "/a.pfm"), io::read_pfm(dir + "/b.pfm"));
  ASSERT_GT(cpu.mse, 1e-6) << "a blur and a copy of the scene must differ";
  EXPECT_NEAR(r.last_metrics->values.mse, cpu.mse, 1e-5 * cpu.mse);
  EXPECT_NEAR(r.last_metrics->values.max_abs, cpu.max_abs, 1e-6 * cpu.max_abs);
  EXPECT_NEAR(r.last_metrics->values.psnr, cpu.psnr, 1e-3);
}

// The window's A/B metrics default to what the user looks at: the displayed pair (tonemapped,
// sRGB-encoded, 8 bits), equal to `filterlab compare` of the two PNG captures of the same frame
// (RGB: alpha is 1 in both, and off); the HDR metrics stay beside them, and the screenshot's sidecar
// records both, each saying what it is taken over.
TEST(WindowUi, DisplayedMetricsEqualCompareOfTheDisplayedCaptures) {
  SKIP_WITHOUT_DISPLAY();
  const std::string dir = temp_dir("window-displayed");
  runtime::RunOptions run = still_run(203, 117, "gaussian.comp.separable_shared:radius=4");
  run.captures = {{"final", dir + "/a.png"}, {"b.final", dir + "/b.png"}};
  app::WindowOptions window;
  window.frames = 5;
  window.hot_reload = false;
  window.compare_chain = "bilateral:radius=3";
  window.screenshot = dir + "/shot.png";
  const app::WindowResult r = run_window_without_messages(run, window);
  ASSERT_TRUE(r.last_displayed_metrics);
  ASSERT_TRUE(r.last_metrics);
  auto compared =
      test::run_binary("compare " + dir + "/a.png " + dir + "/b.png --alpha off --json " + dir + "/c.json");
  ASSERT_EQ(compared.exit_code, 0) << compared.output;
  std::ifstream in(dir + "/c.json");
  const nlohmann::json c = nlohmann::json::parse(in);
  ASSERT_TRUE(c.at("psnr").is_number()) << "a blur and a bilateral filter must differ on screen";
  EXPECT_NEAR(r.last_displayed_metrics->values.psnr, c.at("psnr").get<double>(), 1e-4);
  EXPECT_NEAR(r.last_displayed_metrics->values.max_abs, c.at("max_abs").get<double>(), 1e-6);
  // The SSIM too (the GPU's fp32 moments against compare's double ones: ComparePassTest's bound).
  ASSERT_TRUE(r.last_displayed_metrics->values.ssim.has_value());
  EXPECT_NEAR(*r.last_displayed_metrics->values.ssim, c.at("ssim").get<double>(), 1e-6);
  EXPECT_FALSE(r.last_metrics->values.ssim.has_value()) << "the HDR metrics take no SSIM";
  EXPECT_NE(r.last_displayed_metrics->values.psnr, r.last_metrics->values.psnr);
  std::ifstream sidecar_in(dir + "/shot.json");
  const nlohmann::json side = nlohmann::json::parse(sidecar_in);
  EXPECT_NEAR(side.at("compare_metrics_displayed").at("psnr").get<double>(), c.at("psnr").get<double>(),
              1e-4);
  EXPECT_NEAR(side.at("compare_metrics_displayed").at("ssim").get<double>(), c.at("ssim").get<double>(),
              1e-6);
  EXPECT_EQ(side.at("compare_metrics_displayed").at("max_levels").get<long>(),
            std::lround(c.at("max_abs").get<double>() * 255));
  EXPECT_NE(side.at("compare_metrics_displayed").at("over").get<std::string>().find("8 bits"),
            std::string::npos);
  EXPECT_NE(side.at("compare_metrics").at("over").get<std::string>().find("HDR"), std::string::npos);
}

TEST(WindowUi, ScreenshotKeySavesTheViewportTheFloatImagesAndASidecar) {
  SKIP_WITHOUT_DISPLAY();
  const std::string dir = temp_dir("window-shot");
  runtime::RunOptions run = still_run(240, 160, "gaussian.frag.separable:radius=2");
  run.captures = {
      {"final", dir + "/final.png"}, {"b.final", dir + "/b-final.png"}, {"gaussian", dir + "/a.pfm"}};
  app::WindowOptions window;
  window.frames = 12;
  window.hot_reload = false;
  window.compare_chain = "gaussian.frag.quad_derivative:radius=2";
  window.screenshot_dir = dir + "/shots";
  window.test_screenshot_at = {11};  // the last frame: the captures above are of the same frame
  const app::WindowResult r = run_window_without_messages(run, window);
  ASSERT_EQ(r.screenshots.size(), 1u);
  const std::filesystem::path png = r.screenshots[0];
  const std::string stem = (png.parent_path() / png.stem()).string();
  ASSERT_TRUE(std::filesystem::exists(stem + ".json"));
  ASSERT_TRUE(std::filesystem::exists(stem + ".a.pfm"));
  ASSERT_TRUE(std::filesystem::exists(stem + ".b.pfm"));

  // The PNG is the split view without the panel: A left of the divider (the middle), B right of it.
  const io::ImageU8 shot = io::read_png(png), a = io::read_png(dir + "/final.png"),
                    b = io::read_png(dir + "/b-final.png");
  // The viewport's size: the window's (240x160) less the two collapsed columns' strips.
  const uint32_t w = uint32_t(app::window_layout(240, 160, app::initial_columns(240), true).viewport.w);
  ASSERT_EQ(shot.width, w);
  ASSERT_EQ(shot.height, 160u);
  ASSERT_EQ(a.width, w);
  EXPECT_EQ(mean_difference(shot, a, 0, 0, w / 2 - 1, 160), 0.0);
  EXPECT_EQ(mean_difference(shot, b, w / 2 + 1, 0, w, 160), 0.0);

  // The PFM is chain A's float output, exactly.
  const io::ImageF pfm = io::read_pfm(stem + ".a.pfm"), captured = io::read_pfm(dir + "/a.pfm");
  ASSERT_EQ(pfm.pixels.size(), captured.pixels.size());
  EXPECT_EQ(pfm.pixels, captured.pixels);

  std::ifstream in(stem + ".json");
  const nlohmann::json j = nlohmann::json::parse(in);
  EXPECT_EQ(j.at("chain_a").at("spec"), "gaussian.frag.separable:radius=2");
  EXPECT_EQ(j.at("chain_b").at("spec"), "gaussian.frag.quad_derivative:radius=2");
  EXPECT_EQ(j.at("device").at("name"), r.device.name);
  EXPECT_EQ(j.at("frame"), 11);
  bool has_blur_pass = false;
  for (const auto& p : j.at("timings").at("passes")) has_blur_pass |= p.at("pass") == "gaussian";
  EXPECT_TRUE(has_blur_pass) << j.dump(2);
  EXPECT_TRUE(j.at("compare_metrics").at("mse").is_number());
  // The sidecar is a preset: loaded, it gives both chains with every parameter (a derived sigma left
  // to derive) and the compare on.
  const app::Preset preset = app::load_preset(stem + ".json");
  EXPECT_TRUE(preset.compare);
  ASSERT_EQ(preset.chain.entries.size(), 1u);
  EXPECT_EQ(preset.chain.entries[0].step.method, "frag.separable");
  const std::string a_spec = preset.chain.spec(), b_spec = preset.compare_chain.spec();
  EXPECT_NE(a_spec.find(":radius=2:kernel=gaussian:precision="), std::string::npos) << a_spec;
  EXPECT_NE(b_spec.find("gaussian.frag.quad_derivative:radius=2:kernel=gaussian"), std::string::npos) << b_spec;
  EXPECT_EQ(a_spec.find("sigma"), std::string::npos) << a_spec;
  EXPECT_TRUE(preset.image_file.empty() && preset.scene_file.empty());  // the built-in scene
}

// --compare-mode side reaches the window: the screenshot's left half is the middle half of A, its
// right half the same columns of B (the cyan line between them at W/2).
TEST(WindowUi, SideBySideShowsTheMiddleHalvesOfBothChains) {
  SKIP_WITHOUT_DISPLAY();
  const std::string dir = temp_dir("window-side");
  runtime::RunOptions run = still_run(240, 160, "gaussian.frag.separable:radius=4");
  run.captures = {{"final", dir + "/final.png"}, {"b.final", dir + "/b-final.png"}};
  app::WindowOptions window = presentation_only();
  window.frames = 6;
  window.show_ui = false;
  window.compare_chain = "copy";
  window.compare_mode = passes::CompareSettings::Mode::SideBySide;
  window.screenshot = dir + "/side.png";
  const app::WindowResult r = run_window_without_messages(run, window);
  ASSERT_TRUE(r.screenshot_written);
  const io::ImageU8 shot = io::read_png(dir + "/side.png"), a = io::read_png(dir + "/final.png"),
                    b = io::read_png(dir + "/b-final.png");
  ASSERT_EQ(shot.width, 240u);
  // The A and B labels stay on the viewport without the columns too (--no-ui): in a band along its
  // bottom edge, which the comparison below leaves out.
  constexpr uint32_t kLabelBand = 36;
  EXPECT_GT(mean_difference(shot, a, 0, 160 - kLabelBand, 120, 160), 0.0) << "the A label";
  size_t wrong = 0;
  for (uint32_t y = 0; y < 160 - kLabelBand; ++y)
    for (uint32_t x = 0; x < 240; ++x) {
      if (x == 120) continue;  // the line
      const io::ImageU8& source = x < 120 ? a : b;
      const uint32_t from = x < 120 ? x + 60 : x - 120 + 60;
      for (uint32_t c = 0; c < 3; ++c)
        wrong += shot.rgba[(size_t(y) * 240 + x) * 4 + c] != source.rgba[(size_t(y) * 240 + from) * 4 + c];
    }
  EXPECT_EQ(wrong, 0u);
  EXPECT_GT(mean_difference(a, b, 0, 0, 240, 160), 0.0) << "a blur and a copy must differ";
}

// The flip view shows the FLIP map of the displayed pair in magma, and the displayed metrics carry
// its mean: both equal `compare --flip-map` of the two displayed captures (LDR-FLIP, decoded from
// sRGB, in double), to the rounding expect_flip_view_is_the_map allows.
TEST(WindowUi, TheFlipViewShowsTheMapCompareWrites) {
  SKIP_WITHOUT_DISPLAY();
  const std::string dir = temp_dir("window-flip");
  runtime::RunOptions run = still_run(240, 160, "gaussian.comp.separable_shared:radius=4");
  run.captures = {{"final", dir + "/a.png"}, {"b.final", dir + "/b.png"}};
  app::WindowOptions window = presentation_only();
  window.frames = 5;
  window.show_ui = false;
  window.compare_chain = "bilateral:radius=3";
  window.compare_mode = passes::CompareSettings::Mode::Flip;
  window.screenshot = dir + "/flip.png";
  const app::WindowResult r = run_window_without_messages(run, window);
  ASSERT_TRUE(r.screenshot_written);
  ASSERT_TRUE(r.last_displayed_metrics && r.last_displayed_metrics->flip);
  auto compared = test::run_binary("compare " + dir + "/a.png " + dir + "/b.png --json " + dir +
                                   "/c.json --flip-map " + dir + "/map.png");
  ASSERT_EQ(compared.exit_code, 0) << compared.output;
  std::ifstream in(dir + "/c.json");
  const nlohmann::json c = nlohmann::json::parse(in);
  ASSERT_EQ(c.at("flip").at("kind").get<std::string>(), "LDR");
  const double mean = c.at("flip").at("mean").get<double>();
  EXPECT_GT(mean, 0.001) << "a blur and a bilateral filter must differ on screen";
  EXPECT_NEAR(r.last_displayed_metrics->flip->mean, mean, 1e-4);
  EXPECT_FALSE(r.last_displayed_metrics->flip->hdr);
  const io::ImageU8 shot = io::read_png(dir + "/flip.png"), map = io::read_png(dir + "/map.png");
  expect_flip_view_is_the_map(shot, map);
  std::ifstream sidecar_in(dir + "/flip.json");
  const nlohmann::json side = nlohmann::json::parse(sidecar_in);
  EXPECT_NEAR(side.at("compare_metrics_displayed").at("flip").at("mean").get<double>(), mean, 1e-4);
  EXPECT_TRUE(side.at("compare_metrics").at("flip").is_null())
      << "HDR-FLIP is off while the view shows LDR-FLIP";
}

// With the metrics on the HDR outputs, the flip view and the metrics are HDR-FLIP of the chains'
// outputs at the exposures of A's luminance (found on the GPU): equal to `compare` of the two HDR
// captures, whose exposures come from the double-precision reference.
TEST(WindowUi, TheFlipViewOfTheHdrOutputsIsHdrFlip) {
  SKIP_WITHOUT_DISPLAY();
  const std::string dir = temp_dir("window-flip-hdr");
  runtime::RunOptions run = still_run(200, 120, "gaussian.comp.separable_shared:radius=4");
  run.captures = {{"gaussian", dir + "/a.pfm"}, {"b.bilateral", dir + "/b.pfm"}};
  app::WindowOptions window = presentation_only();
  window.frames = 5;
  window.show_ui = false;
  window.compare_chain = "bilateral:radius=3";
  window.compare_mode = passes::CompareSettings::Mode::Flip;
  window.metrics_on_hdr = true;
  window.screenshot = dir + "/flip.png";
  const app::WindowResult r = run_window_without_messages(run, window);
  ASSERT_TRUE(r.screenshot_written);
  ASSERT_TRUE(r.last_metrics && r.last_metrics->flip);
  EXPECT_FALSE(r.last_displayed_metrics && r.last_displayed_metrics->flip) << "LDR-FLIP is off meanwhile";
  auto compared = test::run_binary("compare " + dir + "/a.pfm " + dir + "/b.pfm --json " + dir +
                                   "/c.json --flip-map " + dir + "/map.png");
  ASSERT_EQ(compared.exit_code, 0) << compared.output;
  std::ifstream in(dir + "/c.json");
  const nlohmann::json c = nlohmann::json::parse(in).at("flip");
  ASSERT_EQ(c.at("kind").get<std::string>(), "HDR");
  const passes::FlipResult& f = *r.last_metrics->flip;
  EXPECT_TRUE(f.hdr);
  EXPECT_TRUE(f.complete);
  EXPECT_EQ(f.exposures.count, c.at("exposures").at("count").get<uint32_t>());
  EXPECT_NEAR(f.exposures.start, c.at("exposures").at("start").get<double>(), 1e-5);
  EXPECT_NEAR(f.mean, c.at("mean").get<double>(), 1e-4);
  EXPECT_GT(f.mean, 0.001);
  const io::ImageU8 shot = io::read_png(dir + "/flip.png"), map = io::read_png(dir + "/map.png");
  expect_flip_view_is_the_map(shot, map);
}

// The viewport's settings, edited by the probe as the panel does, show in the very frame recorded
// after the edit (recorded while the frame before it may still be in flight): each edited frame is
// read back through the screenshot hook and compared with the CPU view of that frame's float
// image, and with the previous settings it would differ.
TEST(WindowUi, ViewSettingsApplyToTheFrameRightAfterTheyChange) {
  SKIP_WITHOUT_DISPLAY();
  using Channel = passes::ViewSettings::Channel;
  const std::string dir = temp_dir("window-view");
  runtime::RunOptions run = still_run(96, 64, "copy");
  app::WindowOptions window = presentation_only();
  window.viewport = "scene";
  window.frames = 16;
  window.screenshot_dir = dir + "/shots";
  struct Edit {
    uint64_t frame;
    float exposure;
    Channel channel;
  };
  const std::vector<Edit> edits = {
      {3, 0.25f, Channel::All}, {6, 4.0f, Channel::All}, {9, 4.0f, Channel::G}, {12, 1.5f, Channel::R}};
  window.on_frame = [&](app::FrameProbe& p) {
    for (const Edit& e : edits)
      if (p.frame == e.frame) {
        p.state.exposure = e.exposure;
        p.state.view.channel = e.channel;
        p.request_screenshot = true;
      }
  };
  const app::WindowResult r = run_window_without_messages(run, window);
  ASSERT_EQ(r.screenshots.size(), edits.size());
  Edit before{0, run.display.exposure, Channel::All};
  for (size_t i = 0; i < edits.size(); ++i) {
    const Edit& e = edits[i];
    SCOPED_TRACE("frame " + std::to_string(e.frame));
    const std::filesystem::path& png = r.screenshots[i];
    const std::string stem = (png.parent_path() / png.stem()).string();
    std::ifstream in(stem + ".json");
    EXPECT_EQ(nlohmann::json::parse(in).at("frame"), e.frame);
    const io::ImageF scene = io::read_pfm(stem + ".pfm");
    const io::ImageU8 shot = io::read_png(png), expected = cpu_view(scene, e.exposure, e.channel);
    ASSERT_EQ(shot.width, 96u);
    ASSERT_EQ(shot.height, 64u);
    ASSERT_GT(max_abs_difference(expected, cpu_view(scene, before.exposure, before.channel)), 8)
        << "the edit must change the view for this test to see it";
    EXPECT_LE(max_abs_difference(shot, expected), 1);
    before = e;
  }
}

// The UI layer alone over a graph image, two frames in flight and no waits besides the ring's, with
// nobody telling the layer that its target changed: one framebuffer serves every frame while the
// executor keeps the image (a prepare at the same size), a new one is made for each new image (a
// new size; a new executor, whose image may even reuse the old handles), and a replaced one is
// destroyed once the frames that used it have finished (validation reports a framebuffer or an
// image destroyed in use), so that only the current one is held in the end.
TEST(WindowUi, UiFramebuffersFollowTheTargetImageAndOutliveTheFramesThatUseThem) {
  SKIP_WITHOUT_DISPLAY();
  constexpr uint32_t kSlots = runtime::kFramesInFlight;
  app::Glfw glfw;
  vk::ContextOptions options;
  options.validation = true;
  vk::Context ctx(options);
  std::vector<uint64_t> created_at;  // the frames after which the count went up
  size_t held_at_end = 0;
  const std::string messages = with_stderr_captured([&] {
    app::Window window({96, 64}, "filterlab ui test", false);
    app::ImGuiLayer ui(ctx, window.get(), kSlots);
    graph::RenderGraph graph;
    graph.declare_image("window", {VK_FORMAT_R8G8B8A8_UNORM});
    graph.add_pass("clear", graph::PassKind::Graphics)
        .color("window", VkClearColorValue{{0.2f, 0.3f, 0.4f, 1.0f}})
        .execute([](graph::PassContext&) {});
    ui.add_to(graph, "window");
    runtime::FrameRing ring(ctx);
    auto executor = std::make_unique<graph::Executor>(ctx, kSlots, false);
    executor->prepare(graph, {"window"}, {96, 64});
    uint32_t count = 0;
    for (uint64_t frame = 0; frame < 12; ++frame) {
      ui.begin_frame();
      ImGui::Text("frame %llu", static_cast<unsigned long long>(frame));
      ui.end_frame();
      // Frames frame - 1 and frame - 2 may still run at each change.
      if (frame == 3) executor->prepare(graph, {"window"}, {96, 64});  // image kept
      if (frame == 5) executor->prepare(graph, {"window"}, {80, 48});  // a new image
      if (frame == 7) {  // a new executor, the old one destroyed with its frames in flight
        executor = std::make_unique<graph::Executor>(ctx, kSlots, false);
        executor->prepare(graph, {"window"}, {80, 48});
      }
      VkCommandBuffer cmd = ring.begin(frame);
      executor->record(cmd, uint32_t(frame % kSlots), frame);
      ring.submit(frame);
      if (ui.framebuffers_created() != count) created_at.push_back(frame);
      count = ui.framebuffers_created();
    }
    held_at_end = ui.framebuffers_held();
    ring.wait_for(12);
    executor.reset();
  });
  EXPECT_EQ(ctx.validation_messages(), 0u);
  EXPECT_EQ(messages.find("validation"), std::string::npos) << messages;
  EXPECT_EQ(created_at, (std::vector<uint64_t>{0, 5, 7}));
  EXPECT_EQ(held_at_end, 1u);
}

TEST(WindowUi, ChainEditsRebuildTheGraphAndEditsTheDeviceCannotRunAreRefused) {
  SKIP_WITHOUT_DISPLAY();
  runtime::RunOptions run = still_run(160, 120, "gaussian.comp.separable_shared:radius=2");
  app::WindowOptions window;
  window.frames = 24;
  window.hot_reload = false;
  std::string refusal;
  std::string chain_after_refusal;
  window.on_frame = [&](app::FrameProbe& p) {
    app::GraphConfig& g = p.state.graph;
    switch (p.frame) {
      case 3: g.chain_a.entries[0].step.method = "frag.full2d"; break;
      case 6:  // the shared-memory 2D method cannot serve radius 32 on 32 or 48 KiB
        g.chain_a.entries[0].step.method = "comp.full2d_shared";
        g.chain_a.entries[0].step.set("radius", "32");
        break;
      case 7:
        refusal = p.chain_error;
        chain_after_refusal = g.chain_a.spec();
        break;
      case 9: g.viewport = "depth"; break;
      case 12: g.viewport = "motion"; break;
      case 15:
        g.compare = true;
        g.chain_b = app::ChainConfig::parse("copy");
        break;
      case 18: p.state.gpu_timing = false; break;
      case 20: g.chain_a.entries.push_back({filters::parse_chain("copy")[0], true}); break;
    }
  };
  const app::WindowResult r = run_window_without_messages(run, window);
  EXPECT_EQ(r.frames, 24u);
  EXPECT_NE(refusal.find("radius"), std::string::npos) << refusal;
  EXPECT_EQ(chain_after_refusal, "gaussian.frag.full2d:radius=2");
  // The first build, then: method, depth, motion, compare, the added copy.
  EXPECT_EQ(r.graph_builds, 6u);
  // An edit does not wait for the GPU: the replaced graph and its passes, and the executor the
  // timestamp switch replaced, stay until the frames that recorded them have finished
  // (validation above would see them destroyed too early), and they are gone before the next
  // edit two or more frames later (not kept for the whole run).
  EXPECT_EQ(r.max_retired_graphs, 1u);
  EXPECT_EQ(r.max_retired_executors, 1u);
  // Each build and the new executor (timestamps off) prepare once. The window image keeps its
  // size, format and usage through the builds, so the executor keeps it and the UI its
  // framebuffer: one for the first executor's window image and one for the new executor's (the
  // UI retires the replaced one with the frames that used it).
  EXPECT_EQ(r.graph_prepares, 7u);
  EXPECT_EQ(r.ui_framebuffers, 2u);
  ASSERT_TRUE(r.last_metrics);  // compare stayed on
}

// The window switches between the built-in scene, a still image and a glTF scene without a restart
// (what the panel's Scene section does); with the image shown, a chain step that reads depth is
// refused and explained, and the image stays.
TEST(WindowUi, TheSceneAndAStillImageSwitchWithoutARestart) {
  SKIP_WITHOUT_DISPLAY();
  const std::string kBox = "/usr/share/assimp/models/glTF2/BoxTextured-glTF/BoxTextured.gltf";
  runtime::RunOptions run = still_run(96, 64, "copy");
  app::WindowOptions window;
  window.frames = 16;
  window.hot_reload = false;
  const auto picture = std::make_shared<const io::ImageF>(common::random_image(40, 30, 4, 2));
  std::string refusal, shown_after_refusal;
  window.on_frame = [&](app::FrameProbe& p) {
    app::GraphConfig& g = p.state.graph;
    switch (p.frame) {
      case 3:
        g.still = picture;
        g.still_file = "picture";
        break;
      case 6: g.chain_a = app::ChainConfig::parse("taa"); break;
      case 7:
        refusal = p.chain_error;
        shown_after_refusal = g.still_file + " " + g.chain_a.spec();
        break;
      case 10: g.still.reset(); break;
      case 12:  // a glTF scene (the panel's open does the same), where Debian's test models are
        if (std::filesystem::exists(kBox)) g.scene_model = scene::load_gltf(kBox).scene;
        break;
    }
  };
  const app::WindowResult r = run_window_without_messages(run, window);
  EXPECT_EQ(r.frames, 16u);
  EXPECT_NE(refusal.find("a still image has no"), std::string::npos) << refusal;
  EXPECT_EQ(shown_after_refusal, "picture copy");
  // The scene, the image, the scene again, the glTF scene.
  EXPECT_EQ(r.graph_builds, std::filesystem::exists(kBox) ? 4u : 3u);
}

// A ROI is checked against the view before any frame records it: an edit that puts one outside is
// refused and explained, and a resize that leaves one outside turns its step off, with the reason,
// instead of ending the app.
TEST(WindowUi, ARoiOutsideTheViewIsRefusedAndAResizeTurnsOffTheStepItLeaves) {
  SKIP_WITHOUT_DISPLAY();
  const std::string rois = ":src_roi=20x20+130+90:dst_roi=20x20+130+90";  // inside 160x120, not 128x96
  runtime::RunOptions run = still_run(160, 120, "gaussian.comp.tiled:radius=2" + rois);
  app::WindowOptions window;
  window.frames = 16;
  window.hot_reload = false;
  window.test_resizes = {{8, {128, 96}}};
  window.show_ui = false;  // the viewport is the window: its size is the image's
  std::string refusal, chain_after_refusal, after_resize;
  bool enabled_after_resize = true;
  window.on_frame = [&](app::FrameProbe& p) {
    app::GraphConfig& g = p.state.graph;
    if (p.frame == 3) g.chain_a.entries[0].step.set("dst_roi", "20x20+150+0");
    if (p.frame == 4) refusal = p.chain_error, chain_after_refusal = g.chain_a.spec();
    if (p.frame == 14) after_resize = p.chain_error, enabled_after_resize = g.chain_a.entries[0].enabled;
  };
  const app::WindowResult r = run_window_without_messages(run, window);
  EXPECT_EQ(r.frames, 16u);
  EXPECT_NE(refusal.find("not applied: gaussian: dst_roi 20x20+150+0 does not fit in the 160x120 image"),
            std::string::npos)
      << refusal;
  EXPECT_EQ(chain_after_refusal, "gaussian.comp.tiled:radius=2" + rois);
  EXPECT_FALSE(enabled_after_resize);
  EXPECT_NE(after_resize.find("turned off: gaussian: src_roi 20x20+130+90 does not fit in the 128x96 image"),
            std::string::npos)
      << after_resize;
  EXPECT_EQ(r.final_extent.width, 128u);
}

// The columns make the viewport narrower than --size: a step whose ROI fits --size but not the
// viewport is turned off in the first frame, saying why, and the window runs on.
TEST(WindowUi, AStepThatDoesNotFitTheViewportIsTurnedOffFromTheFirstFrame) {
  SKIP_WITHOUT_DISPLAY();
  runtime::RunOptions run =
      still_run(160, 120, "gaussian.comp.tiled:radius=2:src_roi=20x20+130+90:dst_roi=20x20+130+90");
  app::WindowOptions window;
  window.frames = 4;
  window.hot_reload = false;
  std::string why;
  bool enabled = true;
  window.on_frame = [&](app::FrameProbe& p) {
    if (p.frame == 2) why = p.chain_error, enabled = p.state.graph.chain_a.entries[0].enabled;
  };
  const app::WindowResult r = run_window_without_messages(run, window);
  EXPECT_EQ(r.frames, 4u);
  EXPECT_FALSE(enabled);
  const uint32_t w = uint32_t(app::window_layout(160, 120, app::initial_columns(160), true).viewport.w);
  EXPECT_NE(why.find("turned off: gaussian: src_roi 20x20+130+90 does not fit in the " + std::to_string(w) +
                     "x120 image"),
            std::string::npos)
      << why;
}

TEST(WindowUi, HotReloadKeepsRunningOnABrokenShaderAndRecoversWhenItIsFixed) {
  SKIP_WITHOUT_DISPLAY();
  const std::filesystem::path shaders = temp_dir("window-reload") + "/shaders";
  std::filesystem::copy(FILTERLAB_SHADER_SOURCE_DIR, shaders, std::filesystem::copy_options::recursive);
  const std::filesystem::path tonemap = shaders / "passes/tonemap.comp";
  std::string original;
  {
    std::ifstream in(tonemap);
    original.assign(std::istreambuf_iterator<char>(in), {});
  }
  runtime::RunOptions run = still_run(160, 120, "copy");
  run.glsl_dir = shaders;
  app::WindowOptions window;
  window.frames = 30;
  window.hot_reload_interval = std::chrono::milliseconds(0);
  std::vector<vk::ShaderError> errors_while_broken;
  size_t errors_after_fix = 99;
  window.on_frame = [&](app::FrameProbe& p) {
    ASSERT_NE(p.pipelines, nullptr);
    if (p.frame == 5) std::ofstream(tonemap, std::ios::app) << "\nthis is not GLSL;\n";
    if (p.frame == 10) errors_while_broken = p.pipelines->errors();
    if (p.frame == 15) std::ofstream(tonemap, std::ios::trunc) << original;
    if (p.frame == 20) errors_after_fix = p.pipelines->errors().size();
  };
  const app::WindowResult r = run_window_without_messages(run, window);
  EXPECT_EQ(r.frames, 30u);
  ASSERT_EQ(errors_while_broken.size(), 1u);
  EXPECT_NE(errors_while_broken[0].file.find("tonemap.comp"), std::string::npos)
      << errors_while_broken[0].file;
  EXPECT_GT(errors_while_broken[0].line, 0u);
  EXPECT_FALSE(errors_while_broken[0].log.empty());
  EXPECT_EQ(errors_after_fix, 0u);
  EXPECT_GE(r.shader_failures, 1u);
  EXPECT_GE(r.shader_reloads, 1u);
  EXPECT_NE(r.shader_source.find("GLSL"), std::string::npos) << r.shader_source;
}

// The Preset section's buttons (pressed through the frame probe, which runs the same save and load
// as the buttons): save writes the window's state, load brings it back whole and rebuilds the graph,
// and a file that is not a preset is refused with the reason, changing nothing.
TEST(WindowUi, ThePresetButtonsSaveAndLoadTheWholeView) {
  SKIP_WITHOUT_DISPLAY();
  const std::string dir = temp_dir("window-preset");
  const std::string saved = dir + "/view.json", broken = dir + "/broken.json";
  std::ofstream(broken) << "{\"schema\": \"not a preset\"}";
  runtime::RunOptions run = still_run(160, 120, "gaussian:radius=3");
  app::WindowOptions window;
  window.frames = 24;
  window.hot_reload = false;
  std::string after_save, after_other_edits, after_load, after_broken, status_saved, status_loaded,
      status_broken;
  float exposure_after_load = 0;
  passes::Tonemapper tonemapper_after_load = passes::Tonemapper::Aces;
  window.on_frame = [&](app::FrameProbe& p) {
    app::GraphConfig& g = p.state.graph;
    switch (p.frame) {
      case 3:
        g.compare = true;
        g.chain_b = app::ChainConfig::parse("copy");
        p.state.exposure = 2.0f;
        p.state.tonemapper = passes::Tonemapper::Agx;
        break;
      case 5: p.press_save_preset = saved; break;
      case 6:
        status_saved = p.preset_status;
        after_save = g.chain_a.spec() + " | " + g.chain_b.spec();
        break;
      case 8:
        g.chain_a = app::ChainConfig::parse("bilateral:radius=1");
        g.compare = false;
        p.state.exposure = 1.0f;
        p.state.tonemapper = passes::Tonemapper::Aces;
        break;
      case 10:
        after_other_edits = g.chain_a.spec();
        p.press_load_preset = saved;
        break;
      case 13:
        status_loaded = p.preset_status;
        after_load = g.chain_a.spec() + " | " + g.chain_b.spec() + (g.compare ? " compare" : "");
        exposure_after_load = p.state.exposure;
        tonemapper_after_load = p.state.tonemapper;
        p.press_load_preset = broken;
        break;
      case 15:
        status_broken = p.preset_status;
        after_broken = g.chain_a.spec() + " | " + g.chain_b.spec() + (g.compare ? " compare" : "");
        break;
    }
  };
  const app::WindowResult r = run_window_without_messages(run, window);
  EXPECT_EQ(r.frames, 24u);
  EXPECT_EQ(status_saved, "saved " + saved);
  ASSERT_TRUE(std::filesystem::exists(saved));
  // The file is one `run --load-chain` takes too, every parameter written out.
  const app::Preset on_disk = app::load_preset(saved);
  const std::string saved_chains = on_disk.chain.spec() + " | " + on_disk.compare_chain.spec();
  EXPECT_EQ(after_save, "gaussian:radius=3 | copy");
  EXPECT_EQ(saved_chains.rfind("gaussian.", 0), 0u) << saved_chains;
  EXPECT_NE(saved_chains.find(":radius=3:"), std::string::npos) << saved_chains;
  EXPECT_NE(saved_chains.find(" | copy."), std::string::npos) << saved_chains;
  EXPECT_TRUE(on_disk.compare);
  EXPECT_EQ(on_disk.display.tonemapper, passes::Tonemapper::Agx);
  EXPECT_EQ(after_other_edits, "bilateral:radius=1");
  EXPECT_EQ(status_loaded, "loaded " + saved);
  EXPECT_EQ(after_load, saved_chains + " compare");
  EXPECT_EQ(exposure_after_load, 2.0f);
  EXPECT_EQ(tonemapper_after_load, passes::Tonemapper::Agx);
  EXPECT_NE(status_broken.find("schema"), std::string::npos) << status_broken;
  EXPECT_EQ(after_broken, after_load);  // refused whole: nothing changed
  // The first build, compare on, the other chain, the load (the refused file builds nothing).
  EXPECT_EQ(r.graph_builds, 4u);
}
