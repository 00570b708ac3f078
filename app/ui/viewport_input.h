#pragma once
// Mouse and keys over the viewport, where the panel does not claim them (Dear ImGui's IO).
#include "app_state.h"

#include <vulkan/vulkan.h>

namespace filterlab::app {

// Drag orbits the camera, or moves the A/B divider when the drag starts on it; the wheel zooms;
// the magnifier follows the cursor. `extent`: the window's framebuffer.
struct ViewportInput {
  bool dragging_divider = false;
  void update(AppState& state, VkExtent2D extent);
};

// Unless a text field has the keyboard: Space pause, N step, Tab panel. True for F12 (screenshot).
bool handle_keys(AppState& state);

}  // namespace filterlab::app
