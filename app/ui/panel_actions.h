#pragma once
// What the panel's buttons ask the window for in a frame (draw_panel returns it; a test's frame probe
// presses the same buttons, window_test_hooks.h).
#include <optional>
#include <string>

namespace filterlab::app {

struct PanelActions {
  bool screenshot = false;
  std::optional<std::string> open;  // a glTF scene or an image to show in place of the scene
  std::optional<std::string> save_preset, load_preset;  // the view to or from a preset file
};

}  // namespace filterlab::app
