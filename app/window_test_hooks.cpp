#include "window_test_hooks.h"

#define GLFW_INCLUDE_VULKAN
#include <GLFW/glfw3.h>

#include <algorithm>
#include <chrono>

namespace filterlab::app {

TestHooks::TestHooks(const WindowOptions& options) : options_(options), resizes_(options.test_resizes) {
  std::stable_sort(resizes_.begin(), resizes_.end(), [](auto& a, auto& b) { return a.frame < b.frame; });
}

void TestHooks::close_if_due(GLFWwindow* window, uint64_t frame) const {
  if (options_.test_close_at && frame >= *options_.test_close_at) glfwSetWindowShouldClose(window, GLFW_TRUE);
}

void TestHooks::minimize_if_due(GLFWwindow* window, uint64_t frame) {
  if (!options_.test_minimize_at || minimize_done_ || frame < *options_.test_minimize_at) return;
  minimize_done_ = true;
  glfwIconifyWindow(window);
  pretend_minimized_ = options_.test_minimize_waits;
}

void TestHooks::wait_minimized(GLFWwindow* window) {
  // Nobody else will wake a test up, and events (e.g. the resizes before) may end a wait early:
  // sleep in the queue until the whole interval has passed.
  const auto start = std::chrono::steady_clock::now();
  const auto deadline = start + std::chrono::duration<double>(kTestWaitSeconds);
  for (auto now = start; now < deadline; now = std::chrono::steady_clock::now())
    glfwWaitEventsTimeout(std::chrono::duration<double>(deadline - now).count());
  if (pretend_minimized_ > 0 && --pretend_minimized_ == 0) glfwRestoreWindow(window);
}

void TestHooks::resize_if_due(GLFWwindow* window, uint64_t frame) {
  while (next_resize_ < resizes_.size() && resizes_[next_resize_].frame <= frame) {
    const VkExtent2D s = resizes_[next_resize_++].size;
    glfwSetWindowSize(window, int(s.width), int(s.height));
  }
}

PanelActions TestHooks::probe(uint64_t frame, AppState& state, const vk::PipelineLibrary* library,
                              const std::optional<passes::CompareMetrics>& metrics,
                              const std::string& chain_error, const std::string& preset_status) const {
  FrameProbe probe{frame, state, library, metrics, chain_error};
  probe.preset_status = preset_status;
  if (options_.on_frame) options_.on_frame(probe);
  for (const WindowOptions::InspectStep& s : options_.test_inspect_at)
    if (s.frame == frame) state.inspector = {true, s.x, s.y};
  const auto& at = options_.test_screenshot_at;
  PanelActions actions;
  actions.screenshot = probe.request_screenshot || std::count(at.begin(), at.end(), uint32_t(frame)) > 0;
  actions.save_preset = probe.press_save_preset;
  actions.load_preset = probe.press_load_preset;
  return actions;
}

}  // namespace filterlab::app
