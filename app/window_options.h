#pragma once
// What `filterlab run` with a window is asked to do (the command line's window options), and the
// hooks that make a run deterministic for the GPU tests and for $FILTERLAB_WINDOW_SCRIPT: the
// window app (window_app.h) and its test hooks (window_test_hooks.h) share them.
#include "app_state.h"
#include "passes/compare_pass.h"
#include "preset.h"
#include "vk/pipeline_library.h"
#include "vk/swapchain.h"

#include <vulkan/vulkan.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace filterlab::app {

// During frame `frame`, the window is resized to `size` (glfwSetWindowSize).
struct ResizeStep {
  uint32_t frame = 0;
  VkExtent2D size{};
};

// What a test hook sees (and may change) before each frame is recorded.
struct FrameProbe {
  uint64_t frame = 0;
  AppState& state;                                 // edits apply to this frame
  const vk::PipelineLibrary* pipelines = nullptr;  // hot reload, when on
  std::optional<passes::CompareMetrics> metrics;   // of the slot's previous frame
  std::string chain_error;                         // why the last chain edit was refused
  bool request_screenshot = false;                 // as the key / button does
  std::string preset_status;                       // the Preset section's line: saved, loaded, or why not
  // The Preset section's buttons, pressed with this file (the same save and load as theirs).
  std::optional<std::string> press_save_preset, press_load_preset;
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
  // --compare-mode, --divider, --gain: how the A/B view starts (divider: none, the middle).
  passes::CompareSettings::Mode compare_mode = passes::CompareSettings::Mode::Split;
  bool metrics_on_hdr = false;  // --compare-metrics hdr: the metrics and the flip view on the HDR outputs
  std::optional<int32_t> divider;
  float gain = 0.0f;
  std::optional<Preset> preset;                      // --load-chain: the state the window starts in
  std::optional<std::filesystem::path> save_preset;  // --save-chain: the state the window ends in
  // The size is the command line's default (no --size, no --image): a CPU device opens the window
  // at kCpuWindowSize instead.
  bool default_size = false;
  std::string viewport = "final";  // --viewport IMAGE
  bool paused = false;             // --pause: start with the animation paused
  std::filesystem::path screenshot_dir = "screenshots";
  std::vector<uint32_t> test_screenshot_at;  // press the screenshot key at these frames
  // Pin the inspector's pixel at these frames (inspect@F:X,Y), as a right click there does.
  struct InspectStep {
    uint32_t frame;
    int32_t x, y;
  };
  std::vector<InspectStep> test_inspect_at;
  // Hot reload: watch the GLSL sources (run.glsl_dir, else the source tree the binary was built
  // from when it is there) or, failing both, the SPIR-V files.
  bool hot_reload = true;
  std::chrono::milliseconds hot_reload_interval{250};
  std::function<void(FrameProbe&)> on_frame;  // tests
};

constexpr double kTestWaitSeconds = 0.05;
constexpr VkExtent2D kCpuWindowSize{640, 360};

}  // namespace filterlab::app
