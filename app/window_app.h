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
#include "runtime/headless_runner.h"
#include "vk/pipeline_library.h"
#include "vk/swapchain.h"

#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace filterlab::app {

// During frame `frame`, the window is resized to `size` (glfwSetWindowSize).
struct ResizeStep {
  uint32_t frame = 0;
  VkExtent2D size{};
};

struct WindowResult;

// What a test hook sees (and may change) before each frame is recorded.
struct FrameProbe {
  uint64_t frame = 0;
  AppState& state;                                 // edits apply to this frame
  const vk::PipelineLibrary* pipelines = nullptr;  // hot reload, when on
  std::optional<passes::CompareMetrics> metrics;   // of the slot's previous frame
  std::string chain_error;                         // why the last chain edit was refused
  bool request_screenshot = false;                 // as the key / button does
};

struct WindowOptions {
  std::optional<uint32_t> frames;                   // exit after this many frames; none: until closed
  std::optional<std::filesystem::path> screenshot;  // the last presented image, read back (.png or .pfm)
  vk::PresentMode present_mode = vk::PresentMode::Fifo;
  bool require_present_mode = false;  // unsupported mode: error instead of FIFO with a note
  bool visible = true;
  // Test hooks. Minimize: glfwIconifyWindow at that frame, then glfwRestoreWindow after
  // `test_minimize_waits` event waits of kTestWaitSeconds each. With no window manager (Xvfb)
  // iconify does nothing, so for those waits the window is treated as minimized regardless.
  // Resize: glfwSetWindowSize between the loop's size check and the acquire, so the swapchain
  // finds out by itself (out of date or suboptimal) where the driver reports it.
  std::vector<ResizeStep> test_resizes;
  std::optional<uint32_t> test_minimize_at;
  uint32_t test_minimize_waits = 6;
  std::optional<uint32_t> test_close_at;  // glfwSetWindowShouldClose at this frame

  // The panel and the A/B compare.
  bool show_ui = true;
  std::optional<std::string> compare_chain;  // --compare B: start with A/B on, B given as a chain
  std::string viewport = "final";            // --viewport IMAGE
  bool paused = false;                       // --pause: start with the animation paused
  std::filesystem::path screenshot_dir = "screenshots";
  std::vector<uint32_t> test_screenshot_at;  // press the screenshot key at these frames
  // Hot reload: watch the GLSL sources (run.glsl_dir, else the source tree the binary was built
  // from when it is there) or, failing both, the SPIR-V files.
  bool hot_reload = true;
  std::chrono::milliseconds hot_reload_interval{250};
  std::function<void(FrameProbe&)> on_frame;  // tests
};

constexpr double kTestWaitSeconds = 0.05;

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
  std::optional<passes::CompareMetrics> last_metrics;
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

// GLFW could not open a window (no DISPLAY, no X server). Exit code 3, like a missing device.
class NoDisplayError : public vk::NoDeviceError {
 public:
  using vk::NoDeviceError::NoDeviceError;
};

// Runs the window until it is closed or `window.frames` frames were presented; then writes the
// screenshot, run.captures and run.dump_graph. Throws on errors (usage errors as
// runtime::UnknownImageError and filters::ChainError, like run_headless).
WindowResult run_window_app(const runtime::RunOptions& run, const WindowOptions& window);

// run_window_app, then a one-line summary on stdout unless run.print_table is false. Returns the
// exit code: 0, or 4 when validation messages were reported.
int run_window(const runtime::RunOptions& run, const WindowOptions& window);

}  // namespace filterlab::app
