#pragma once
// The WindowOptions test hooks, which make a window run deterministic: close, minimize and resize
// the window at given frames as a user would, and let a probe see (and edit) the state before
// each frame.
#include "ui/panel_actions.h"
#include "window_options.h"

#include <cstdint>
#include <string>
#include <vector>

struct GLFWwindow;

namespace filterlab::app {

class TestHooks {
 public:
  explicit TestHooks(const WindowOptions& options);  // `options` must outlive the hooks

  void close_if_due(GLFWwindow* window, uint64_t frame) const;  // as the window manager's button does
  void minimize_if_due(GLFWwindow* window, uint64_t frame);
  bool drives_minimize() const { return options_.test_minimize_at.has_value(); }
  // With no window manager (Xvfb) iconify does nothing: the hook's waits count as minimized.
  bool pretends_minimized() const { return pretend_minimized_ > 0; }
  // One wait while minimized: kTestWaitSeconds in the event queue; the last one restores the window.
  void wait_minimized(GLFWwindow* window);
  // Resized behind the loop's back, as a user would between the size check and the acquire: the
  // swapchain reports itself out of date or suboptimal.
  void resize_if_due(GLFWwindow* window, uint64_t frame);
  // Runs on_frame: what it asks for this frame, as the key and the panel's buttons would (a
  // screenshot: also at test_screenshot_at).
  PanelActions probe(uint64_t frame, AppState& state, const vk::PipelineLibrary* library,
                     const std::optional<passes::CompareMetrics>& metrics, const std::string& chain_error,
                     const std::string& preset_status) const;

 private:
  const WindowOptions& options_;
  std::vector<ResizeStep> resizes_;  // by frame
  size_t next_resize_ = 0;
  bool minimize_done_ = false;
  uint32_t pretend_minimized_ = 0;  // remaining waits that count as minimized
};

}  // namespace filterlab::app
