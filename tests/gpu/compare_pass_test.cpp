// GPU tier: the A/B compare pass on lavapipe with synchronization validation. Its metrics are
// checked against common::image_metrics, its display against the split rule, the CPU heat map of
// common::difference_heatmap and the magnifier's nearest-sampling rule, and its per-slot result
// buffers over several frames with two in flight and inputs changing every frame.
#include "gpu_test_util.h"

#include "common/metrics.h"
#include "common/reference.h"
#include "graph/executor.h"
#include "passes/compare_pass.h"
#include "passes/tonemap_pass.h"
#include "passes/upload_pass.h"
#include "runtime/frame_ring.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <random>

using namespace filterlab;
using passes::CompareSettings;

namespace {

// Relative tolerance on the MSE: fp32 tile trees plus a compensated sum of the partials stay
// within a few 1e-7 here; a single running fp32 sum over a 4K image would be off by ~1e-4.
constexpr double kMseTolerance = 1e-5;
// The GPU forms a - b in fp32 (one rounding, <= 2^-25 for values under 1); the CPU in double.
constexpr double kMaxAbsTolerance = 1e-7;

io::ImageF random_image(uint32_t width, uint32_t height, uint32_t seed, float low = 0.0f, float high = 1.0f) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(low, high);
  io::ImageF image{width, height, 3, std::vector<float>(size_t(width) * height * 3)};
  for (float& v : image.pixels) v = dist(rng);
  return image;
}

// `base` plus noise of amplitude `amplitude`: small, realistic differences (a filtered image).
io::ImageF perturbed(const io::ImageF& base, uint32_t seed, float amplitude) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-amplitude, amplitude);
  io::ImageF image = base;
  for (float& v : image.pixels) v += dist(rng);
  return image;
}

// The display image read back as floats (RGBA8 as byte / 255).
struct Display {
  uint32_t width = 0, height = 0;
  VkFormat format{};
  std::vector<uint8_t> bytes;
  float at(uint32_t x, uint32_t y, uint32_t c) const {
    const size_t i = (size_t(y) * width + x) * 4 + c;
    if (format == VK_FORMAT_R8G8B8A8_UNORM) return bytes[i] / 255.0f;
    float v;
    std::memcpy(&v, bytes.data() + i * 4, 4);
    return v;
  }
  uint8_t byte(uint32_t x, uint32_t y, uint32_t c) const { return bytes[(size_t(y) * width + x) * 4 + c]; }
};

struct Outcome {
  std::optional<passes::CompareMetrics> metrics;
  Display display;
};

// A per-slot staging buffer copied into a graph image every frame, so a test can change an
// input between frames while the previous frame is still in flight.
class SlotUpload {
 public:
  SlotUpload(const vk::Context& ctx, uint32_t width, uint32_t height, uint32_t slots)
      : width_(width), height_(height) {
    for (uint32_t i = 0; i < slots; ++i)
      staging_.emplace_back(ctx, VkDeviceSize(width) * height * 16, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, true,
                            "test staging " + std::to_string(i));
  }
  // Only while the slot's previous frame is finished (FrameRing::begin waited for it).
  void set(uint32_t slot, const io::ImageF& image) {
    auto* out = static_cast<float*>(staging_.at(slot).mapped());
    for (size_t p = 0; p < size_t(width_) * height_; ++p)
      for (uint32_t c = 0; c < 4; ++c) out[p * 4 + c] = c < 3 ? image.pixels[p * 3 + c] : 1.0f;
  }
  void add_to(graph::RenderGraph& graph, const std::string& name) {
    graph.declare_image(name, {VK_FORMAT_R32G32B32A32_SFLOAT, graph::SizeRule::absolute(width_, height_)});
    graph.add_pass("slot upload " + name, graph::PassKind::Transfer)
        .write(name, graph::Usage::TransferDst)
        .execute([this, name](graph::PassContext& ctx) {
          VkBufferImageCopy region{};
          region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
          region.imageExtent = {width_, height_, 1};
          vkCmdCopyBufferToImage(ctx.cmd, staging_.at(ctx.slot).handle(), ctx.image_handle(name),
                                 VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
        });
  }

 private:
  uint32_t width_, height_;
  std::vector<vk::Buffer> staging_;
};

// Two images uploaded into a graph as "a" and "b" (RGBA32F), for tests that declare their own passes.
struct UploadedPair {
  UploadedPair(const passes::PassEnv& env, graph::RenderGraph& graph, const io::ImageF& a,
               const io::ImageF& b)
      : upload_a(env, a, VK_FORMAT_R32G32B32A32_SFLOAT), upload_b(env, b, VK_FORMAT_R32G32B32A32_SFLOAT) {
    upload_a.add_to(graph, "a");
    upload_b.add_to(graph, "b");
  }
  passes::UploadPass upload_a, upload_b;
};

class ComparePassTest : public test::ValidatedSuite {
 protected:
  // One frame: upload A (and B unless null: then the pass compares A with itself), compare, read back.
  static Outcome run(const io::ImageF& a, const io::ImageF* b, const CompareSettings& settings,
                     VkFormat display_format = VK_FORMAT_R32G32B32A32_SFLOAT) {
    passes::PassEnv env{*context_, *shaders_, 1};
    graph::RenderGraph graph;
    passes::UploadPass upload_a(env, a, VK_FORMAT_R32G32B32A32_SFLOAT);
    upload_a.add_to(graph, "a");
    std::optional<passes::UploadPass> upload_b;
    if (b) {
      upload_b.emplace(env, *b, VK_FORMAT_R32G32B32A32_SFLOAT);
      upload_b->add_to(graph, "b");
    }
    passes::ComparePass compare(env, display_format);
    compare.settings = settings;
    EXPECT_FALSE(compare.metrics(0).has_value()) << "no frame recorded yet";
    add_both(compare, graph, "a", b ? "b" : "a");

    graph::Executor executor(*context_, 1, false);
    executor.prepare(graph, {"compare"}, {a.width, a.height});
    vk::OneShotCommands commands(*context_);
    commands.run([&](VkCommandBuffer cmd) { executor.record(cmd, 0, 0); });
    const graph::Readback r = executor.read_image("compare");
    return {compare.metrics(0), Display{r.extent.width, r.extent.height, r.format, r.bytes}};
  }

  // Metrics and display of one pair, as the window adds them.
  static void add_both(passes::ComparePass& compare, graph::RenderGraph& graph, const std::string& a,
                       const std::string& b, const std::string& display = "compare") {
    compare.add_metrics(graph, a, b, display + " metrics");
    compare.add_display(graph, a, b, display);
  }

  static void expect_metrics_match(const passes::CompareMetrics& gpu, const io::ImageF& a,
                                   const io::ImageF& b) {
    const common::ImageMetrics cpu = common::image_metrics(a, b);
    ASSERT_EQ(cpu.channels, 3u);
    EXPECT_EQ(gpu.values.channels, 3u);
    EXPECT_EQ(gpu.extent.width, a.width);
    EXPECT_EQ(gpu.extent.height, a.height);
    EXPECT_NEAR(gpu.values.mse, cpu.mse, kMseTolerance * cpu.mse) << a.width << "x" << a.height;
    EXPECT_NEAR(gpu.values.max_abs, cpu.max_abs, kMaxAbsTolerance) << a.width << "x" << a.height;
    // PSNR = -10 log10(MSE): a relative MSE error e moves it by 4.35 e dB.
    EXPECT_NEAR(gpu.values.psnr, cpu.psnr, 5 * kMseTolerance) << a.width << "x" << a.height;
  }
};

CompareSettings split(int32_t divider, bool line) {
  CompareSettings s;
  s.mode = CompareSettings::Mode::Split;
  s.divider_x = divider;
  s.divider_line = line;
  return s;
}

CompareSettings difference(float gain) {
  CompareSettings s;
  s.mode = CompareSettings::Mode::Difference;
  s.gain = gain;
  return s;
}

// The magnifier's rule, restated: a side x side square centred on the (clamped) cursor, shifted
// to stay inside the image; a 1-pixel border; inside, texel cursor + floor((p - centre) / zoom).
struct Magnifier {
  int x0, y0, side;
  int cx, cy, zoom;
  Magnifier(const CompareSettings& s, int width, int height) {
    side = int(s.inset_size);
    zoom = int(s.zoom);
    cx = std::clamp(s.cursor_x, 0, width - 1);
    cy = std::clamp(s.cursor_y, 0, height - 1);
    x0 = std::clamp(cx - side / 2, 0, std::max(width - side, 0));
    y0 = std::clamp(cy - side / 2, 0, std::max(height - side, 0));
  }
  bool inside(int x, int y) const { return x >= x0 && y >= y0 && x < x0 + side && y < y0 + side; }
  bool border(int x, int y) const {
    return inside(x, y) && (x == x0 || y == y0 || x == x0 + side - 1 || y == y0 + side - 1);
  }
  static int floor_div(int a, int b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }
  std::pair<int, int> texel(int x, int y, int width, int height) const {
    return {std::clamp(cx + floor_div(x - x0 - side / 2, zoom), 0, width - 1),
            std::clamp(cy + floor_div(y - y0 - side / 2, zoom), 0, height - 1)};
  }
};

constexpr float kCyan[4] = {0.0f, 1.0f, 1.0f, 1.0f};

}  // namespace

TEST_F(ComparePassTest, AnImageAgainstItselfGivesZero) {
  const io::ImageF a = random_image(257, 131, 1);
  for (bool same_name : {true, false}) {
    SCOPED_TRACE(same_name ? "A and B are one graph image" : "A and B are two uploads of the same data");
    const Outcome out = run(a, same_name ? nullptr : &a, difference(0.0f));
    ASSERT_TRUE(out.metrics.has_value());
    EXPECT_EQ(out.metrics->values.mse, 0.0);
    EXPECT_EQ(out.metrics->values.max_abs, 0.0);
    EXPECT_TRUE(std::isinf(out.metrics->values.psnr) && out.metrics->values.psnr > 0);
    for (double c : out.metrics->channel_mse) EXPECT_EQ(c, 0.0);
    EXPECT_EQ(out.metrics->frame, 0u);
    // No difference and automatic gain: black everywhere (the gain falls back to 1, not 1/0).
    size_t lit = 0;
    for (uint32_t y = 0; y < a.height; ++y)
      for (uint32_t x = 0; x < a.width; ++x)
        lit += out.display.at(x, y, 0) != 0.0f || out.display.at(x, y, 1) != 0.0f ||
               out.display.at(x, y, 2) != 0.0f;
    EXPECT_EQ(lit, 0u);
  }
}

TEST_F(ComparePassTest, MetricsMatchTheCpuAtOddSizes) {
  const std::pair<uint32_t, uint32_t> sizes[] = {{257, 131}, {13, 9}, {1, 1}, {33, 1}, {1024, 768}};
  uint32_t seed = 10;
  for (auto [w, h] : sizes) {
    SCOPED_TRACE(std::to_string(w) + "x" + std::to_string(h));
    const io::ImageF a = random_image(w, h, ++seed);
    // Independent images (large differences) and a perturbed copy (small ones, as a filter makes).
    for (const io::ImageF& b : {random_image(w, h, ++seed), perturbed(a, ++seed, 1e-3f)}) {
      const Outcome out = run(a, &b, split(0, false));
      ASSERT_TRUE(out.metrics.has_value());
      expect_metrics_match(*out.metrics, a, b);
      EXPECT_GT(out.metrics->values.mse, 0.0);
    }
  }
}

// 3840x2160x3 = 25M squared differences: where a plain fp32 running sum drifts by ~1e-4.
TEST_F(ComparePassTest, MetricsStayAccurateAt4K) {
  const io::ImageF a = random_image(3840, 2160, 100);
  const io::ImageF b = perturbed(a, 101, 0.05f);
  const Outcome out = run(a, &b, split(0, false), VK_FORMAT_R8G8B8A8_UNORM);
  ASSERT_TRUE(out.metrics.has_value());
  // image_metrics would also compute SSIM at 4K; MSE and max |a-b| are all this needs.
  double sum = 0, worst = 0;
  for (size_t i = 0; i < a.pixels.size(); ++i) {
    const double d = double(a.pixels[i]) - double(b.pixels[i]);
    sum += d * d;
    worst = std::max(worst, std::abs(d));
  }
  const double mse = sum / double(a.pixels.size());
  EXPECT_NEAR(out.metrics->values.mse, mse, kMseTolerance * mse);
  EXPECT_NEAR(out.metrics->values.max_abs, worst, kMaxAbsTolerance);
}

TEST_F(ComparePassTest, SplitShowsALeftOfTheDividerAndBFromIt) {
  // Values outside 0..1 too: the RGBA32F display keeps them, the RGBA8 one clamps.
  const io::ImageF a = random_image(257, 131, 20, -0.5f, 1.5f);
  const io::ImageF b = random_image(257, 131, 21, -0.5f, 1.5f);
  struct Case {
    int32_t divider;
    bool line;
  };
  for (VkFormat format : {VK_FORMAT_R32G32B32A32_SFLOAT, VK_FORMAT_R8G8B8A8_UNORM}) {
    const bool exact = format == VK_FORMAT_R32G32B32A32_SFLOAT;
    for (Case c : {Case{100, true}, Case{100, false}, Case{0, false}, Case{257, true}, Case{-3, true}}) {
      SCOPED_TRACE(std::string(exact ? "rgba32f" : "rgba8") + " divider " + std::to_string(c.divider) +
                   (c.line ? " with line" : ""));
      const Outcome out = run(a, &b, split(c.divider, c.line), format);
      ASSERT_EQ(out.display.width, a.width);
      ASSERT_EQ(out.display.height, a.height);
      size_t wrong = 0;
      for (uint32_t y = 0; y < a.height; ++y)
        for (uint32_t x = 0; x < a.width; ++x)
          for (uint32_t ch = 0; ch < 4; ++ch) {
            float want;
            if (c.line && int32_t(x) == c.divider) want = kCyan[ch];
            else if (ch == 3) want = 1.0f;
            else want = (int32_t(x) < c.divider ? a : b).at(x, y, ch);
            const float got = out.display.at(x, y, ch);
            if (exact) wrong += got != want;
            else
              wrong += std::abs(int(out.display.byte(x, y, ch)) -
                                int(std::lround(std::clamp(want, 0.0f, 1.0f) * 255))) > 1;
          }
      EXPECT_EQ(wrong, 0u);
    }
  }
}

// Side by side: the middle half of A (from column W/4) on the left, the same columns of B on the
// right, and the line between them at W/2; odd and even widths.
TEST_F(ComparePassTest, SideBySideShowsTheMiddleHalvesOfAAndB) {
  for (uint32_t width : {257u, 96u}) {
    const io::ImageF a = random_image(width, 37, 30), b = random_image(width, 37, 31);
    for (bool line : {true, false}) {
      SCOPED_TRACE("width " + std::to_string(width) + (line ? " with line" : ""));
      CompareSettings s;
      s.mode = CompareSettings::Mode::SideBySide;
      s.divider_line = line;
      const Outcome out = run(a, &b, s);
      const int32_t middle = int32_t(width / 2), quarter = int32_t(width / 4);
      size_t wrong = 0;
      for (uint32_t y = 0; y < a.height; ++y)
        for (int32_t x = 0; x < int32_t(width); ++x)
          for (uint32_t ch = 0; ch < 4; ++ch) {
            float want;
            if (line && x == middle) want = kCyan[ch];
            else if (ch == 3) want = 1.0f;
            else if (x < middle) want = a.at(uint32_t(x + quarter), y, ch);
            else want = b.at(uint32_t(x - middle + quarter), y, ch);
            wrong += out.display.at(uint32_t(x), y, ch) != want;
          }
      EXPECT_EQ(wrong, 0u);
    }
  }
}

TEST_F(ComparePassTest, DifferenceMatchesTheCpuHeatMap) {
  const io::ImageF a = random_image(257, 131, 30);
  // Differences over the whole range, and small ones that only a large gain shows.
  const io::ImageF far = random_image(257, 131, 31);
  const io::ImageF near = perturbed(a, 32, 0.01f);
  struct Case {
    const io::ImageF* b;
    float gain;
  };
  for (Case c :
       {Case{&far, 1.0f}, Case{&far, 0.0f}, Case{&near, 0.0f}, Case{&near, 100.0f}, Case{&near, -1.0f}}) {
    SCOPED_TRACE((c.b == &far ? "far, gain " : "near, gain ") + std::to_string(c.gain));
    const Outcome out = run(a, c.b, difference(c.gain), VK_FORMAT_R8G8B8A8_UNORM);
    const io::ImageU8 cpu = common::difference_heatmap(a, *c.b, c.gain);
    size_t off = 0, exact = 0;
    for (size_t i = 0; i < cpu.rgba.size(); ++i) {
      const int d = std::abs(int(out.display.bytes[i]) - int(cpu.rgba[i]));
      off += d > 1;
      exact += d == 0;
    }
    EXPECT_EQ(off, 0u) << "bytes more than 1 LSB from the CPU heat map";
    EXPECT_GT(exact, cpu.rgba.size() * 99 / 100) << "most bytes should match exactly";
    // The ramp is really used: some red, yellow and (with full-range differences) white pixels.
    size_t yellowish = 0;
    for (size_t p = 0; p < cpu.rgba.size() / 4; ++p) yellowish += out.display.bytes[p * 4 + 1] > 128;
    EXPECT_GT(yellowish, 0u);
  }
}

TEST_F(ComparePassTest, MagnifierShowsTheNearestZoomOfTheChosenSource) {
  const int w = 97, h = 61;
  const io::ImageF a = random_image(w, h, 40);
  const io::ImageF b = random_image(w, h, 41);
  const io::ImageU8 heat = common::difference_heatmap(a, b, 2.0);
  struct Case {
    CompareSettings::Source source;
    int cx, cy;
    uint32_t zoom, side;
  };
  const Case cases[] = {
      {CompareSettings::Source::A, 40, 30, 3, 21},          {CompareSettings::Source::B, 40, 30, 4, 20},
      {CompareSettings::Source::Difference, 40, 30, 5, 31}, {CompareSettings::Source::A, 0, 0, 2, 15},
      {CompareSettings::Source::B, 96, 60, 3, 21},          {CompareSettings::Source::A, -5, 200, 1, 9},
      {CompareSettings::Source::A, 50, 30, 6, 500},  // larger than the image: covers all of it
  };
  for (const Case& c : cases) {
    CompareSettings s = split(48, false);
    s.gain = 2.0f;
    s.magnifier = true;
    s.magnifier_source = c.source;
    s.cursor_x = c.cx;
    s.cursor_y = c.cy;
    s.zoom = c.zoom;
    s.inset_size = c.side;
    SCOPED_TRACE("source " + std::to_string(int(c.source)) + " cursor " + std::to_string(c.cx) + "," +
                 std::to_string(c.cy) + " zoom " + std::to_string(c.zoom) + " side " +
                 std::to_string(c.side));
    const Outcome out = run(a, &b, s);
    const Magnifier m(s, w, h);
    size_t wrong = 0, magnified = 0;
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x)
        for (uint32_t ch = 0; ch < 4; ++ch) {
          const float got = out.display.at(x, y, ch);
          if (!m.inside(x, y)) {
            const float want = ch == 3 ? 1.0f : (x < 48 ? a : b).at(x, y, ch);
            wrong += got != want;
          } else if (m.border(x, y)) {
            wrong += got != kCyan[ch];
          } else {
            ++magnified;
            const auto [tx, ty] = m.texel(x, y, w, h);
            if (c.source == CompareSettings::Source::Difference) {
              // The float display holds the unquantized ramp: within half an LSB of the CPU's byte.
              const float want = heat.rgba[(size_t(ty) * w + tx) * 4 + ch];
              wrong += std::abs(got * 255.0f - want) > 0.5f + 1e-3f;
            } else {
              const float want =
                  ch == 3 ? 1.0f : (c.source == CompareSettings::Source::A ? a : b).at(tx, ty, ch);
              wrong += got != want;
            }
          }
        }
    EXPECT_EQ(wrong, 0u);
    EXPECT_GT(magnified, 0u);
  }

  // The rule above, pinned by hand: cursor (40,30), zoom 3, side 21 puts the square at (30,20); the
  // cursor's texel fills pixels 40..42, its left neighbour 37..39, its right one 43..45.
  CompareSettings s = split(0, false);
  s.magnifier = true;
  s.cursor_x = 40;
  s.cursor_y = 30;
  s.zoom = 3;
  s.inset_size = 21;
  const Outcome out = run(a, &b, s);
  for (uint32_t ch = 0; ch < 3; ++ch) {
    EXPECT_EQ(out.display.at(30, 25, ch), kCyan[ch]);         // left border
    EXPECT_EQ(out.display.at(29, 25, ch), b.at(29, 25, ch));  // outside: the split view (all B)
    for (int x : {40, 41, 42}) EXPECT_EQ(out.display.at(x, 30, ch), a.at(40, 30, ch)) << x;
    for (int x : {37, 38, 39}) EXPECT_EQ(out.display.at(x, 30, ch), a.at(39, 30, ch)) << x;
    for (int x : {43, 44, 45}) EXPECT_EQ(out.display.at(x, 30, ch), a.at(41, 30, ch)) << x;
    EXPECT_EQ(out.display.at(40, 27, ch), a.at(40, 29, ch));
  }
}

// Two frames in flight over several frames, B changing every frame: each slot's metrics belong to
// the frame that last used the slot, read after that frame's timeline value.
TEST_F(ComparePassTest, MetricsPerFrameInFlight) {
  constexpr uint32_t kSlots = runtime::kFramesInFlight;
  const uint32_t w = 129, h = 67;
  const io::ImageF a = random_image(w, h, 50);
  const std::vector<io::ImageF> variants = {perturbed(a, 51, 0.001f), perturbed(a, 52, 0.02f),
                                            random_image(w, h, 53), a};
  std::vector<common::ImageMetrics> expected;
  for (const io::ImageF& v : variants) expected.push_back(common::image_metrics(a, v));

  passes::PassEnv env{*context_, *shaders_, kSlots};
  graph::RenderGraph graph;
  passes::UploadPass upload_a(env, a, VK_FORMAT_R32G32B32A32_SFLOAT, passes::UploadPass::When::Once);
  upload_a.add_to(graph, "a");
  SlotUpload upload_b(*context_, w, h, kSlots);
  upload_b.add_to(graph, "b");
  passes::ComparePass compare(env);
  add_both(compare, graph, "a", "b");
  graph::Executor executor(*context_, kSlots, true);
  executor.prepare(graph, {"compare"}, {w, h});

  const uint64_t frames = 9;
  size_t checked = 0;
  auto check = [&](uint64_t frame) {
    SCOPED_TRACE("frame " + std::to_string(frame));
    const auto m = compare.metrics(frame % kSlots);
    ASSERT_TRUE(m.has_value());
    EXPECT_EQ(m->frame, frame);
    const common::ImageMetrics& want = expected[frame % variants.size()];
    EXPECT_NEAR(m->values.mse, want.mse, kMseTolerance * want.mse);
    EXPECT_NEAR(m->values.max_abs, want.max_abs, kMaxAbsTolerance);
    ++checked;
  };
  {
    runtime::FrameRing ring(*context_);
    for (uint64_t frame = 0; frame < frames; ++frame) {
      VkCommandBuffer cmd = ring.begin(frame);  // waits for frame - kSlots, the slot's last user
      if (frame >= kSlots) check(frame - kSlots);
      const uint32_t slot = frame % kSlots;
      upload_b.set(slot, variants[frame % variants.size()]);
      // The UI edits settings between frames; the display reads this frame's result either way.
      compare.settings.mode = frame % 2 ? CompareSettings::Mode::Difference : CompareSettings::Mode::Split;
      compare.settings.divider_x = int32_t(frame * 10);
      executor.record(cmd, slot, frame);
      ring.submit(frame);
    }
    ring.wait_for(frames);
    for (uint64_t frame = frames - kSlots; frame < frames; ++frame) check(frame);
  }
  EXPECT_EQ(checked, frames);

  // The last frame (8: variant 0, split at x = 80) left its display behind.
  const graph::Readback r = executor.read_image("compare");
  const io::ImageF& last_b = variants[(frames - 1) % variants.size()];
  for (uint32_t x : {0u, 79u, 81u, 128u})
    EXPECT_NEAR(r.bytes[(size_t(5) * w + x) * 4],
                std::lround(std::clamp((x < 80 ? a : last_b).at(x, 5, 0), 0.0f, 1.0f) * 255), 1)
        << x;
}

// Two frames recorded into one command buffer with one slot: the second frame's reductions
// rewrite the partial sums and the results the first frame's passes read, which only the buffer
// barriers the graph derives across frames order. (The layers here check hazards inside a command
// buffer, not across submissions, so this is where those barriers are exercised.)
TEST_F(ComparePassTest, BackToBackFramesInOneSubmission) {
  const io::ImageF a = random_image(70, 40, 70), b = perturbed(a, 71, 0.1f);
  passes::PassEnv env{*context_, *shaders_, 1};
  graph::RenderGraph graph;
  UploadedPair uploads(env, graph, a, b);
  passes::ComparePass compare(env);
  compare.settings = difference(0.0f);
  add_both(compare, graph, "a", "b");
  graph::Executor executor(*context_, 1, false);
  executor.prepare(graph, {"compare"}, {a.width, a.height});
  vk::OneShotCommands commands(*context_);
  commands.run([&](VkCommandBuffer cmd) {
    executor.record(cmd, 0, 0);
    executor.record(cmd, 0, 1);
  });
  const auto m = compare.metrics(0);
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->frame, 1u);
  expect_metrics_match(*m, a, b);
}

// One ComparePass across graphs of several sizes (a window rebuilds its graph on a chain edit):
// the partial sums follow each graph's image size.
TEST_F(ComparePassTest, FollowsTheImageSizeAcrossGraphs) {
  passes::PassEnv env{*context_, *shaders_, 1};
  passes::ComparePass compare(env);
  uint32_t seed = 80;
  for (auto [w, h] : {std::pair{40u, 30u}, std::pair{300u, 200u}, std::pair{64u, 64u}}) {
    SCOPED_TRACE(std::to_string(w) + "x" + std::to_string(h));
    const io::ImageF a = random_image(w, h, ++seed), b = random_image(w, h, ++seed);
    graph::RenderGraph graph;
    UploadedPair uploads(env, graph, a, b);
    add_both(compare, graph, "a", "b");
    graph::Executor executor(*context_, 1, false);
    executor.prepare(graph, {"compare"}, {w, h});
    vk::OneShotCommands commands(*context_);
    commands.run([&](VkCommandBuffer cmd) { executor.record(cmd, 0, seed); });
    const auto m = compare.metrics(0);
    ASSERT_TRUE(m.has_value());
    EXPECT_EQ(m->frame, seed);
    expect_metrics_match(*m, a, b);
  }
}

// --shader-source and hot reload compile the GLSL with shaderc, includes and all.
TEST_F(ComparePassTest, ShadersCompileAtRunTime) {
  const vk::ShaderSource glsl{{}, FILTERLAB_SHADER_SOURCE_DIR};
  passes::PassEnv env{*context_, glsl, 2};
  for (VkFormat format :
       {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R16G16B16A16_SFLOAT, VK_FORMAT_R32G32B32A32_SFLOAT})
    EXPECT_NO_THROW(passes::ComparePass(env, format)) << vk::format_name(format);
}

TEST_F(ComparePassTest, BadInputIsReportedClearly) {
  passes::PassEnv env{*context_, *shaders_, 2};
  try {
    passes::ComparePass bad(env, VK_FORMAT_R8G8B8A8_SRGB);
    FAIL() << "an sRGB display format cannot be a storage image";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("display format"), std::string::npos) << e.what();
  }

  passes::ComparePass compare(env);
  EXPECT_THROW(compare.metrics(2), std::out_of_range);

  // A and B of different sizes: the pass refuses to record, naming both images and sizes.
  const io::ImageF a = random_image(16, 8, 60), b = random_image(8, 16, 61);
  graph::RenderGraph graph;
  UploadedPair uploads(env, graph, a, b);
  add_both(compare, graph, "a", "b");
  graph::Executor executor(*context_, 2, false);
  executor.prepare(graph, {"compare"}, {16, 8});
  vk::OneShotCommands commands(*context_);
  try {
    commands.run([&](VkCommandBuffer cmd) { executor.record(cmd, 0, 0); });
    FAIL() << "recording should have thrown";
  } catch (const graph::GraphError& e) {
    EXPECT_NE(std::string(e.what()).find("'a' is 16x8 but 'b' is 8x16"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(compare.metrics(0).has_value());
}

// The window's use: metrics on one pair (the HDR chain outputs, RGBA16F, exact here since every
// value is a multiple of 1/256 below 8) and the display on another (the tonemapped images), of
// another size. The display's automatic gain must follow its own pair, not the metrics'.
TEST_F(ComparePassTest, MetricsAndDisplayOnDifferentPairs) {
  auto hdr_image = [](uint32_t w, uint32_t h, uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> steps(0, 8 * 256 - 1);
    io::ImageF image{w, h, 3, std::vector<float>(size_t(w) * h * 3)};
    for (float& v : image.pixels) v = float(steps(rng)) / 256.0f;
    return image;
  };
  const io::ImageF hdr_a = hdr_image(129, 67, 90), hdr_b = hdr_image(129, 67, 91);
  const uint32_t w = 97, h = 61;
  const io::ImageF shown_a = random_image(w, h, 92), shown_b = perturbed(shown_a, 93, 0.05f);

  passes::PassEnv env{*context_, *shaders_, 1};
  graph::RenderGraph graph;
  passes::UploadPass up_hdr_a(env, hdr_a, VK_FORMAT_R16G16B16A16_SFLOAT),
      up_hdr_b(env, hdr_b, VK_FORMAT_R16G16B16A16_SFLOAT), up_a(env, shown_a, VK_FORMAT_R32G32B32A32_SFLOAT),
      up_b(env, shown_b, VK_FORMAT_R32G32B32A32_SFLOAT);
  up_hdr_a.add_to(graph, "hdr a");
  up_hdr_b.add_to(graph, "hdr b");
  up_a.add_to(graph, "shown a");
  up_b.add_to(graph, "shown b");
  passes::ComparePass compare(env, VK_FORMAT_R8G8B8A8_UNORM);
  // Display first: the order of the two calls does not matter.
  compare.add_display(graph, "shown a", "shown b", "compare");
  compare.add_metrics(graph, "hdr a", "hdr b", "compare metrics");
  graph::Executor executor(*context_, 1, false);
  executor.prepare(graph, {"compare"}, {w, h});
  EXPECT_TRUE(executor.compiled().culled.empty());

  const common::ImageMetrics want = common::image_metrics(hdr_a, hdr_b);
  vk::OneShotCommands commands(*context_);
  auto frame = [&](uint64_t index, const CompareSettings& settings) {
    compare.settings = settings;
    commands.run([&](VkCommandBuffer cmd) { executor.record(cmd, 0, index); });
    const auto m = compare.metrics(0);
    EXPECT_TRUE(m.has_value());
    if (m) {
      EXPECT_EQ(m->frame, index);
      EXPECT_EQ(m->extent.width, hdr_a.width);
      EXPECT_EQ(m->extent.height, hdr_a.height);
      EXPECT_NEAR(m->values.mse, want.mse, kMseTolerance * want.mse);
      EXPECT_NEAR(m->values.max_abs, want.max_abs, kMaxAbsTolerance);
      EXPECT_GT(m->values.max_abs, 1.0) << "HDR differences: a gain from them would be far off";
    }
    const graph::Readback r = executor.read_image("compare");
    EXPECT_EQ(r.extent.width, w);
    EXPECT_EQ(r.extent.height, h);
    return Display{r.extent.width, r.extent.height, r.format, r.bytes};
  };

  {
    SCOPED_TRACE("difference, automatic gain");
    const Display d = frame(0, difference(0.0f));
    const io::ImageU8 cpu = common::difference_heatmap(shown_a, shown_b, 0.0);
    ASSERT_EQ(d.bytes.size(), cpu.rgba.size());
    size_t off = 0, white = 0;
    for (size_t i = 0; i < cpu.rgba.size(); ++i) off += std::abs(int(d.bytes[i]) - int(cpu.rgba[i])) > 1;
    for (size_t p = 0; p < cpu.rgba.size() / 4; ++p) white += d.bytes[p * 4 + 2] >= 254;
    EXPECT_EQ(off, 0u) << "bytes more than 1 LSB from the CPU heat map of the displayed pair";
    EXPECT_GT(white, 0u) << "the largest displayed difference is white";
  }
  {
    SCOPED_TRACE("split, then the magnifier on the difference with automatic gain");
    const Display d = frame(1, split(40, false));
    size_t wrong = 0;
    for (uint32_t y = 0; y < h; ++y)
      for (uint32_t x = 0; x < w; ++x)
        for (uint32_t ch = 0; ch < 3; ++ch)
          wrong +=
              std::abs(int(d.byte(x, y, ch)) -
                       int(std::lround(std::clamp((x < 40 ? shown_a : shown_b).at(x, y, ch), 0.0f, 1.0f) *
                                       255))) > 1;
    EXPECT_EQ(wrong, 0u);

    CompareSettings s = split(40, false);
    s.magnifier = true;
    s.magnifier_source = CompareSettings::Source::Difference;
    s.cursor_x = 50;
    s.cursor_y = 30;
    s.zoom = 3;
    s.inset_size = 31;
    const Display m = frame(2, s);
    const io::ImageU8 heat = common::difference_heatmap(shown_a, shown_b, 0.0);
    const Magnifier mag(s, int(w), int(h));
    size_t magnified = 0;
    wrong = 0;
    for (int y = 0; y < int(h); ++y)
      for (int x = 0; x < int(w); ++x) {
        if (!mag.inside(x, y) || mag.border(x, y)) continue;
        ++magnified;
        const auto [tx, ty] = mag.texel(x, y, int(w), int(h));
        for (uint32_t ch = 0; ch < 3; ++ch)
          wrong += std::abs(int(m.byte(x, y, ch)) - int(heat.rgba[(size_t(ty) * w + tx) * 4 + ch])) > 1;
      }
    EXPECT_GT(magnified, 0u);
    EXPECT_EQ(wrong, 0u);
  }
}

// The metrics are never culled (the host reads their result after the frame); the display and its
// gain reduction are when nothing asks for the display. The buffers are graph resources: the
// partial sums one vec4 per 32x32 tile of A, the metrics' result imported from the pass.
TEST_F(ComparePassTest, MetricsLiveWithoutTheDisplayAndTheirBuffersAreGraphResources) {
  const io::ImageF a = random_image(70, 40, 95), b = random_image(70, 40, 96);
  passes::PassEnv env{*context_, *shaders_, 1};
  graph::RenderGraph graph;
  UploadedPair uploads(env, graph, a, b);
  passes::ComparePass compare(env);
  compare.add_metrics(graph, "a", "b", "m");
  compare.add_display(graph, "a", "b", "shown");
  graph::Executor executor(*context_, 1, false);
  executor.prepare(graph, {"a"}, {70, 40});
  const graph::CompiledGraph& compiled = executor.compiled();
  EXPECT_EQ(compiled.culled, (std::vector<std::string>{"shown gain", "shown gain finish", "shown"}));
  const auto partials = compiled.find_buffer("m partials");
  ASSERT_TRUE(partials.has_value());
  EXPECT_EQ(compiled.buffers[*partials].size, 3u * 2u * 16u);  // ceil(70 / 32) x ceil(40 / 32) tiles
  const auto result = compiled.find_buffer("m result");
  ASSERT_TRUE(result.has_value());
  EXPECT_TRUE(compiled.buffers[*result].imported);
  EXPECT_FALSE(compiled.find_buffer("shown gain result").has_value());

  vk::OneShotCommands commands(*context_);
  commands.run([&](VkCommandBuffer cmd) { executor.record(cmd, 0, 4); });
  ASSERT_TRUE(compare.metrics(0).has_value());
  EXPECT_EQ(compare.metrics(0)->frame, 4u);
  expect_metrics_match(*compare.metrics(0), a, b);
}

// The window's resize: one graph whose images follow the output size, prepared again at another
// size while two frames are in flight (no device wait): every frame's metrics and display follow
// its own size, and the buffers replaced by a resize stay alive until their frames are done.
TEST_F(ComparePassTest, FollowsTheOutputSizeWithFramesInFlight) {
  constexpr uint32_t kSlots = runtime::kFramesInFlight;
  // A and B are cleared to colours that change every frame.
  auto colour = [](char image, uint64_t frame) -> std::array<float, 4> {
    if (image == 'a') return {0.25f + 0.01f * float(frame % 5), 0.5f, 0.75f, 1.0f};
    return {0.2f, 0.5f + 0.02f * float(frame % 3), 0.1f, 1.0f};
  };
  graph::RenderGraph graph;
  for (char image : {'a', 'b'}) {
    const std::string name(1, image);
    graph.declare_image(name, {VK_FORMAT_R32G32B32A32_SFLOAT, graph::SizeRule::output()});
    graph.add_pass("clear " + name, graph::PassKind::Transfer)
        .write(name, graph::Usage::TransferDst)
        .execute([name, image, colour](graph::PassContext& ctx) {
          const std::array<float, 4> c = colour(image, ctx.frame);
          const VkClearColorValue value{{c[0], c[1], c[2], c[3]}};
          const VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
          vkCmdClearColorImage(ctx.cmd, ctx.image_handle(name), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &value,
                               1, &range);
        });
  }
  passes::PassEnv env{*context_, *shaders_, kSlots};
  passes::ComparePass compare(env);
  compare.settings = difference(0.0f);
  add_both(compare, graph, "a", "b");
  graph::Executor executor(*context_, kSlots, false);

  std::vector<VkExtent2D> sizes;  // per frame
  auto check = [&](uint64_t frame) {
    SCOPED_TRACE("frame " + std::to_string(frame));
    const auto m = compare.metrics(frame % kSlots);
    ASSERT_TRUE(m.has_value());
    EXPECT_EQ(m->frame, frame);
    EXPECT_EQ(m->extent.width, sizes[frame].width);
    EXPECT_EQ(m->extent.height, sizes[frame].height);
    double sum = 0, worst = 0;
    for (int c = 0; c < 3; ++c) {
      const double d = double(colour('a', frame)[c]) - double(colour('b', frame)[c]);
      sum += d * d;
      worst = std::max(worst, std::abs(d));
    }
    EXPECT_NEAR(m->values.mse, sum / 3, kMseTolerance * sum / 3);
    EXPECT_NEAR(m->values.max_abs, worst, kMaxAbsTolerance);
  };
  uint64_t frame = 0;
  {
    runtime::FrameRing ring(*context_);
    for (VkExtent2D size :
         {VkExtent2D{40, 30}, VkExtent2D{300, 200}, VkExtent2D{64, 64}, VkExtent2D{33, 70}}) {
      executor.prepare(graph, {"compare"}, size);
      for (int i = 0; i < 3; ++i, ++frame) {
        sizes.push_back(size);
        VkCommandBuffer cmd = ring.begin(frame);  // waits for frame - kSlots only
        if (frame >= kSlots) check(frame - kSlots);
        executor.record(cmd, uint32_t(frame % kSlots), frame);
        ring.submit(frame);
      }
    }
    ring.wait_for(frame);
    for (uint64_t f = frame - kSlots; f < frame; ++f) check(f);
  }
  // The last display: a constant difference with the automatic gain is white everywhere.
  const graph::Readback r = executor.read_image("compare");
  ASSERT_EQ(r.extent.width, 33u);
  ASSERT_EQ(r.extent.height, 70u);
  size_t not_white = 0;
  for (uint8_t v : r.bytes) not_white += v != 255;
  EXPECT_EQ(not_white, 0u);
}

// The window's A/B view: one TonemapPass tonemaps chain A into "final" and chain B into "b.final"
// (pass "b.tonemap"); the metrics measure the HDR images, the display splits the tonemapped ones.
TEST_F(ComparePassTest, TwoTonemapsFeedTheDisplayWhileTheMetricsMeasureHdr) {
  const uint32_t w = 45, h = 27;
  const io::ImageF hdr_a = random_image(w, h, 110, 0.0f, 6.0f), hdr_b = random_image(w, h, 111, 0.0f, 6.0f);
  const float exposure = 0.8f;
  // Exposure, Narkowicz's ACES fit and the sRGB curve, restated on the CPU.
  auto tonemapped = [&](const io::ImageF& image, uint32_t x, uint32_t y, uint32_t c) {
    const double v = std::max(double(image.at(x, y, c)) * exposure, 0.0);
    const double aces = std::clamp((v * (2.51 * v + 0.03)) / (v * (2.43 * v + 0.59) + 0.14), 0.0, 1.0);
    const double srgb = aces <= 0.0031308 ? aces * 12.92 : 1.055 * std::pow(aces, 1.0 / 2.4) - 0.055;
    return int(std::lround(srgb * 255));
  };

  passes::PassEnv env{*context_, *shaders_, 1};
  graph::RenderGraph graph;
  passes::UploadPass up_a(env, hdr_a, VK_FORMAT_R32G32B32A32_SFLOAT),
      up_b(env, hdr_b, VK_FORMAT_R32G32B32A32_SFLOAT);
  up_a.add_to(graph, "hdr a");
  up_b.add_to(graph, "hdr b");
  passes::TonemapPass tonemap(env);
  tonemap.display.exposure = exposure;
  tonemap.add_to(graph, "hdr a");
  tonemap.add_to(graph, "hdr b", "b.final", "b.tonemap");
  passes::ComparePass compare(env, VK_FORMAT_R8G8B8A8_UNORM);
  compare.add_metrics(graph, "hdr a", "hdr b", "ab metrics");
  compare.add_display(graph, passes::TonemapPass::kOutput, "b.final", "ab");
  compare.settings = split(20, true);

  graph::Executor executor(*context_, 1, false);
  executor.prepare(graph, {"ab"}, {w, h});
  std::vector<std::string> live;
  for (const graph::CompiledPass& p : executor.compiled().passes) live.push_back(p.name);
  for (const char* name : {"tonemap", "b.tonemap", "ab metrics", "ab"})
    EXPECT_NE(std::find(live.begin(), live.end(), name), live.end()) << name;
  vk::OneShotCommands commands(*context_);
  commands.run([&](VkCommandBuffer cmd) { executor.record(cmd, 0, 0); });

  const auto m = compare.metrics(0);
  ASSERT_TRUE(m.has_value());
  expect_metrics_match(*m, hdr_a, hdr_b);
  const graph::Readback r = executor.read_image("ab");
  const Display d{r.extent.width, r.extent.height, r.format, r.bytes};
  ASSERT_EQ(d.width, w);
  size_t wrong = 0;
  for (uint32_t y = 0; y < h; ++y)
    for (uint32_t x = 0; x < w; ++x)
      for (uint32_t ch = 0; ch < 4; ++ch) {
        int want = 255;
        if (x == 20) want = int(kCyan[ch] * 255);
        else if (ch < 3) want = tonemapped(x < 20 ? hdr_a : hdr_b, x, y, ch);
        wrong += std::abs(int(d.byte(x, y, ch)) - want) > 1;
      }
  EXPECT_EQ(wrong, 0u);
}

// The SSIM of a metrics reduction that takes it (the window's displayed pair does) against the
// double-precision common::ssim, mean over R, G, B: random pairs (SSIM near 0), a perturbed copy
// (near 1), 8-bit values (as the displayed images hold), an image against itself, and the
// structured image with flat regions and steps, at odd sizes
// down to the 11x11 window; under it, no SSIM. fp32 sums of 121-tap moments of values in 0..1
// stay within kSsimTolerance of the double result in the mean (measured: 3.6e-7 at most, on the structured
// pair).
TEST_F(ComparePassTest, SsimMatchesTheCpuAtOddSizes) {
  constexpr double kSsimTolerance = 1e-6;
  auto quantized = [](io::ImageF image) {
    for (float& v : image.pixels) v = std::round(std::clamp(v, 0.0f, 1.0f) * 255.0f) / 255.0f;
    return image;
  };
  const std::pair<uint32_t, uint32_t> sizes[] = {{257, 131}, {11, 11}, {27, 13}, {203, 117}, {10, 40}};
  uint32_t seed = 300;
  for (auto [w, h] : sizes) {
    SCOPED_TRACE(std::to_string(w) + "x" + std::to_string(h));
    const io::ImageF a = random_image(w, h, ++seed);
    // The structured image (flat regions, a step, a ramp, a square): in its flat regions the
    // variance is 0 and E[x^2] - E[x]^2 is all cancellation; against itself one level brighter, and
    // against a noisy 8-bit copy.
    const io::ImageF rgba = common::structured_image(w, h);
    io::ImageF s{w, h, 3, {}};  // its colour (the compare measures RGB; the square's edge is in it too)
    for (size_t p = 0; p < rgba.pixels.size(); ++p)
      if (p % 4 != 3) s.pixels.push_back(rgba.pixels[p]);
    io::ImageF brighter = s;
    for (float& v : brighter.pixels) v += 1.0f / 255;
    const std::pair<io::ImageF, io::ImageF> pairs[] = {
        {a, random_image(w, h, ++seed)},
        {a, perturbed(a, ++seed, 0.02f)},
        {quantized(a), quantized(perturbed(a, ++seed, 0.05f))},
        {a, a},
        {s, brighter},
        {quantized(s), quantized(perturbed(s, ++seed, 0.05f))}};
    for (const auto& [first, second] : pairs) {
      passes::PassEnv env{*context_, *shaders_, 1};
      graph::RenderGraph graph;
      UploadedPair uploads(env, graph, first, second);
      passes::ComparePass compare(env);
      compare.add_metrics(graph, "a", "b", "m", passes::Ssim::On);
      graph::Executor executor(*context_, 1, false);
      executor.prepare(graph, {"a"}, {w, h});
      vk::OneShotCommands commands(*context_);
      commands.run([&](VkCommandBuffer cmd) { executor.record(cmd, 0, 7); });
      const std::optional<passes::CompareMetrics> m = compare.metrics(0);
      ASSERT_TRUE(m.has_value());
      if (&first != &second && first.pixels != second.pixels) expect_metrics_match(*m, first, second);
      if (w < 11 || h < 11) {
        EXPECT_FALSE(m->values.ssim.has_value()) << "an image under the 11x11 window has no SSIM";
        continue;
      }
      ASSERT_TRUE(m->values.ssim.has_value());
      const double cpu =
          (common::ssim(first, second, 0) + common::ssim(first, second, 1) + common::ssim(first, second, 2)) /
          3;
      EXPECT_NEAR(*m->values.ssim, cpu, kSsimTolerance) << "CPU " << cpu;
    }
  }
}
