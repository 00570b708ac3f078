#pragma once
// Mouse and keys over the viewport, where the panel does not claim them (Dear ImGui's IO).
#include "app_state.h"

#include <vulkan/vulkan.h>

namespace filterlab::app {

// Drag orbits the camera, or moves the A/B divider when the drag starts on it; the wheel zooms;
// the magnifier and the pixel inspector follow the cursor; a right click pins the inspector's pixel.
// `viewport`: the window's viewport region (ui/layout.h), which shows the graph's image 1:1; a press outside
// it (over a column) does not reach the scene.
struct ViewportInput {
  bool dragging_divider = false;
  bool dragging_scene = false;
  void update(AppState& state, const Rect& viewport);
};

// Unless a text field has the keyboard: Space pause, N step, Tab panel. True for F12 (screenshot).
bool handle_keys(AppState& state);

}  // namespace filterlab::app
