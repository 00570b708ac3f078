#pragma once
// Mouse and keys over the viewport, where the panel does not claim them (Dear ImGui's IO).
#include "app_state.h"

#include <vulkan/vulkan.h>

namespace filterlab::app {

// Drag orbits the camera (pans the view when zoomed in), or moves the A/B divider when the drag
// starts on it; the wheel moves the camera, Ctrl + wheel zooms the view;
// the magnifier and the pixel inspector follow the cursor; a right click pins the inspector's pixel.
// `viewport`: the window's viewport region (ui/layout.h), which shows the graph's image 1:1; a press outside
// it (over a column) does not reach the scene.
struct ViewportInput {
  bool dragging_divider = false;
  bool dragging_scene = false;
  void update(AppState& state, const Rect& viewport);
};

// The view's zoom times `factor` (whole zooms, 1..kMaxZoom) about image pixel (x, y); at 1 the whole
// image again.
ViewZoom zoomed(ViewZoom z, float factor, int32_t about_x, int32_t about_y);

// Unless a text field has the keyboard: Space pause, N step, Tab columns, F or 1 the whole image
// (fit is 1:1: the graph renders at the viewport's size), + and - zoom about the cursor's pixel.
// True for F12 (screenshot).
bool handle_keys(AppState& state);

}  // namespace filterlab::app
