#pragma once
// The screenshot key and button: the viewport as shown (PNG, no panel), the float image behind it
// (PFM: the viewport's source image, or with the A/B compare both chains' HDR outputs) and a JSON
// sidecar (chains, methods and parameters, per-pass timings, compare metrics, scene, device),
// under unique names in a folder. Written through the headless runner's capture code.
#include "app_state.h"
#include "graph/executor.h"
#include "passes/pixel_probe.h"
#include "ui/timing_history.h"
#include "vk/context.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace filterlab::app {

struct ScreenshotContext {
  const AppState& state;
  const TimingHistory& timings;
  const vk::DeviceReport& device;
  std::optional<passes::CompareMetrics> metrics;            // over the HDR outputs
  std::optional<passes::CompareMetrics> displayed_metrics;  // over the displayed images
  std::optional<passes::PixelValues> pixel;                 // the inspector's
  uint64_t frame = 0;
  std::string output_a, output_b;  // the chains' HDR outputs
};

struct ScreenshotFiles {
  std::filesystem::path png, json;
  std::vector<std::filesystem::path> pfm;
};

// "filterlab-YYYYMMDD-HHMMSS" plus "-N" when that name is taken in `dir`.
std::filesystem::path unique_screenshot_stem(const std::filesystem::path& dir);

// Reads the images back (waits for the device). Throws io::IoError when a file cannot be written.
ScreenshotFiles save_screenshot(graph::Executor& executor, const std::filesystem::path& dir,
                                const ScreenshotContext& context);
// The sidecar alone: `png` is the picture it describes and `png_shows` what is in it, `floats` maps
// the float images written beside it to the graph images they hold. Also what `run --screenshot
// FILE` writes to FILE.json.
void write_sidecar(const std::filesystem::path& path, const std::filesystem::path& png,
                   const std::string& png_shows, const nlohmann::json& floats, const ScreenshotContext& context);

}  // namespace filterlab::app
