#include "screenshot.h"

#include "preset.h"

#include "io/image_io.h"
#include "runtime/capture.h"
#include "window_graph.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <ctime>

namespace filterlab::app {

namespace {

using json = nlohmann::json;

bool stem_taken(const std::filesystem::path& stem) {
  for (const char* ext : {".png", ".json", ".pfm", ".a.pfm", ".b.pfm"})
    if (std::filesystem::exists(stem.string() + ext)) return true;
  return false;
}

json chain_json(const ChainConfig& chain) {
  json steps = json::array();
  for (const ChainEntry& e : chain.entries)
    steps.push_back({{"filter", e.step.filter},
                     {"method", e.step.method},
                     {"params", e.step.params},
                     {"enabled", e.enabled}});
  return {{"spec", chain.spec()}, {"steps", steps}};
}

// FLIP of B against A where that frame took it: null otherwise, and the mean null where HDR-FLIP
// had no exposure range.
json flip_json(const std::optional<passes::FlipResult>& f) {
  if (!f) return nullptr;
  json j = {{"kind", f->hdr ? "HDR" : "LDR"},
            {"mean", f->hdr && f->exposures.count == 0 ? json(nullptr) : json(f->mean)},
            {"ppd", f->ppd},
            {"frame", f->frame}};
  j["exposures"] = f->hdr ? json{{"start", f->exposures.start},
                                 {"stop", f->exposures.stop},
                                 {"count", f->exposures.count},
                                 {"all_recorded", f->complete}}
                          : json(nullptr);
  return j;
}

json finite_or_null(double v) {
  return std::isfinite(v) ? json(v) : json(nullptr);
}

}  // namespace

std::filesystem::path unique_screenshot_stem(const std::filesystem::path& dir) {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  localtime_r(&now, &tm);
  char name[64];
  std::strftime(name, sizeof name, "filterlab-%Y%m%d-%H%M%S", &tm);
  std::filesystem::path stem = dir / name;
  for (int n = 2; stem_taken(stem); ++n) stem = dir / (std::string(name) + "-" + std::to_string(n));
  return stem;
}

ScreenshotFiles save_screenshot(graph::Executor& executor, const std::filesystem::path& dir,
                                const ScreenshotContext& c) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw io::IoError("cannot create the screenshot folder " + dir.string() + ": " + ec.message());
  const std::filesystem::path stem = unique_screenshot_stem(dir);
  const passes::Display display = c.state.display();
  ScreenshotFiles files;
  files.png = stem.string() + ".png";
  files.json = stem.string() + ".json";
  runtime::write_capture(executor.read_image(WindowGraph::kViewport), files.png, display);

  json floats = json::object();
  if (c.state.graph.compare) {
    for (const auto& [suffix, image] : {std::pair{".a.pfm", c.output_a}, std::pair{".b.pfm", c.output_b}}) {
      files.pfm.push_back(stem.string() + suffix);
      runtime::write_capture(executor.read_image(image), files.pfm.back(), display);
      floats[files.pfm.back().filename().string()] = image;
    }
  } else {
    files.pfm.push_back(stem.string() + ".pfm");
    runtime::write_capture(executor.read_image(c.state.graph.viewport), files.pfm.back(), display);
    floats[files.pfm.back().filename().string()] = c.state.graph.viewport;
  }
  const std::string shows = c.state.graph.compare
                                ? "the A/B compare view (tonemapped), without the panel"
                                : "viewport image '" + c.state.graph.viewport + "', without the panel";
  write_sidecar(files.json, files.png, shows, floats, c);
  return files;
}

void write_sidecar(const std::filesystem::path& path, const std::filesystem::path& png,
                   const std::string& png_shows, const nlohmann::json& floats, const ScreenshotContext& c) {
  const passes::Display display = c.state.display();
  json passes = json::array();
  for (const std::string& pass : c.timings.pass_order()) {
    const RollingStats s = c.timings.pass_stats(pass);
    passes.push_back({{"pass", pass},
                      {"gpu_ms_mean", s.mean},
                      {"gpu_ms_min", s.min},
                      {"gpu_ms_max", s.max},
                      {"frames", s.count}});
  }
  json j;
  j["schema"] = "filterlab.screenshot/1";
  j["png"] = png.filename().string();
  j["png_shows"] = png_shows;
  j["pfm"] = floats;
  j["frame"] = c.frame;
  j["animation_frame"] = c.state.animation_frame;
  j["chain_a"] = chain_json(c.state.graph.chain_a);
  if (c.state.graph.compare) {
    j["chain_b"] = chain_json(c.state.graph.chain_b);
    if (c.metrics)
      j["compare_metrics"] = {{"mse", c.metrics->values.mse},
                              {"psnr", finite_or_null(c.metrics->values.psnr)},
                              {"max_abs", c.metrics->values.max_abs},
                              {"flip", flip_json(c.metrics->flip)},
                              {"frame", c.metrics->frame},
                              {"over", "RGB of the chains' HDR outputs"}};
    if (c.displayed_metrics)
      j["compare_metrics_displayed"] = {
          {"mse", c.displayed_metrics->values.mse},
          {"psnr", finite_or_null(c.displayed_metrics->values.psnr)},
          {"ssim",
           c.displayed_metrics->values.ssim ? json(*c.displayed_metrics->values.ssim) : json(nullptr)},
          {"flip", flip_json(c.displayed_metrics->flip)},
          {"max_levels", std::lround(c.displayed_metrics->values.max_abs * 255)},
          {"frame", c.displayed_metrics->frame},
          {"over",
           "RGB of the displayed images: tonemapped, sRGB-encoded, 8 bits (as a PNG capture), in 0..1"}};
  }
  if (c.pixel) {
    auto rgba = [](const std::array<float, 4>& v) { return json::array({v[0], v[1], v[2], v[3]}); };
    auto levels = [](const std::array<float, 4>& v) {
      return json::array({std::lround(v[0] * 255), std::lround(v[1] * 255), std::lround(v[2] * 255),
                          std::lround(v[3] * 255)});
    };
    j["inspector"] = {{"x", c.pixel->x},
                      {"y", c.pixel->y},
                      {"frame", c.pixel->frame},
                      {"pinned", c.state.inspector.pinned},
                      {"a_linear", rgba(c.pixel->rgba[0])},
                      {"b_linear", rgba(c.pixel->rgba[1])},
                      {"a_displayed", levels(c.pixel->rgba[2])},
                      {"b_displayed", levels(c.pixel->rgba[3])},
                      {"over",
                       "linear: the chains' outputs as stored; displayed: final and b.final, 0-255 "
                       "(B is A without compare)"}};
  }
  j["viewport"] = c.state.graph.viewport;
  j["content"] = c.state.graph.still ? c.state.graph.still_file : std::string("built-in scene");
  j["exposure"] = display.automatic ? json("auto") : json(display.exposure);
  if (display.automatic) j["exposure_compensation"] = display.exposure;
  j["tonemap"] = passes::tonemapper_name(display.tonemapper);
  j["preset"] = preset_json(preset_of(c.state));  // `run --load-chain` and the panel's load take this file
  j["scene"] = {{"orbit_camera", c.state.scene.orbit_camera},
                {"animate_objects", c.state.scene.animate_objects},
                {"jitter", c.state.scene.jitter},
                {"camera_yaw", c.state.scene.camera_yaw},
                {"camera_pitch", c.state.scene.camera_pitch},
                {"camera_distance", c.state.scene.camera_distance}};
  j["timings"] = {{"gpu_timing", c.state.gpu_timing},
                  {"window_frames", c.timings.window()},
                  {"gpu_frame_ms_mean", c.timings.gpu_total().mean},
                  {"cpu_frame_ms_mean", c.timings.cpu_frame().mean},
                  {"passes", passes}};
  j["device"] = {{"name", c.device.name},
                 {"driver", c.device.driver_name + " " + c.device.driver_info},
                 {"api", vk::api_version_string(c.device.api_version)},
                 {"type", c.device.device_type}};
  io::write_file_atomically(path, j.dump(2) + "\n");
}

}  // namespace filterlab::app
