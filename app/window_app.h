#pragma once
// `filterlab run` without --headless: a GLFW window with the control panel (Dear ImGui) over the
// viewport. The graph (window_graph.h) renders the scene through chain A (and chain B for the A/B
// compare), shows any of its images or the compare view, draws the UI in a pass of its own and
// copies the result into the acquired swapchain image in a "present" pass. Editing the chains
// rebuilds the graph between frames; shader edits rebuild pipelines (hot reload). Resizing rebuilds
// the swapchain and the graph's images; a minimized window waits for events without rendering.
// --frames / --screenshot and the test hooks make a run deterministic, so the GPU tests drive it
// in-process under Xvfb.
#include "app_state.h"
#include "glfw_window.h"
#include "passes/pixel_probe.h"
#include "runtime/headless_runner.h"
#include "vk/pipeline_library.h"
#include "vk/swapchain.h"
#include "window_options.h"

#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace filterlab::app {

struct WindowResult {
  vk::DeviceReport device;
  uint64_t frames = 0;  // rendered and presented
  // Each swapchain build: the frame it happened before and its extent (the first one included).
  std::vector<std::pair<uint64_t, VkExtent2D>> builds;
  uint32_t graph_prepares = 0;
  uint32_t out_of_date = 0;  // acquire or present asked for a rebuild (normal during resizes)
  // Event waits while minimized, the frame counter during each, and what they cost.
  std::vector<uint64_t> minimized_wait_frames;
  double minimized_wall_s = 0, minimized_cpu_s = 0;
  VkFormat swapchain_format = VK_FORMAT_UNDEFINED;
  std::string present_mode;  // as used
  std::string note;          // present mode fallback or format remark
  VkExtent2D final_extent{};
  bool screenshot_written = false;
  std::vector<runtime::Capture> captures_written;  // run.captures, once a frame was rendered
  std::vector<std::filesystem::path> screenshots;  // key / button: the PNG of each
  std::optional<passes::CompareMetrics> last_metrics;            // of the HDR outputs
  std::optional<passes::CompareMetrics> last_displayed_metrics;  // of the displayed pair
  std::optional<passes::PixelValues> last_pixel;                 // the inspector's, of the last frame
  std::optional<passes::PixelValues> last_cursor_pixel;          // the magnifier's (the cursor's), the same
  uint32_t graph_builds = 0;  // the first included
  // Most replaced graphs and executors kept at once for the frames in flight that recorded them
  // (LiveGraph).
  size_t max_retired_graphs = 0, max_retired_executors = 0;
  uint32_t ui_frames = 0;  // frames recorded with the panel drawn
  uint32_t ui_framebuffers =
      0;  // made by the UI layer: one per new window image (resize, new executor), not one per frame
  uint32_t shader_reloads = 0, shader_failures = 0;
  std::string shader_source;         // what hot reload watched
  uint32_t validation_messages = 0;  // counted after the swapchain, surface and window are gone
};

// Runs the window until it is closed or `window.frames` frames were presented; then writes the
// screenshot, run.captures and run.dump_graph. Throws on errors (usage errors as
// runtime::UnknownImageError and filters::ChainError, like run_headless).
WindowResult run_window_app(const runtime::RunOptions& run, const WindowOptions& window);

// run_window_app, then a one-line summary on stdout unless run.print_table is false. Returns the
// exit code: 0, or 4 when validation messages were reported.
int run_window(const runtime::RunOptions& run, const WindowOptions& window);

}  // namespace filterlab::app
