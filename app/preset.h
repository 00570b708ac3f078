#pragma once
// Presets: what a view is made of, in a JSON file that `run --load-chain`, the window's "load"
// button and `run --save-chain` / "save" share, and that every screenshot sidecar carries (its
// "preset" object), so that a screenshot's view can be loaded back:
//   chain and compare_chain  each step's family, method and every parameter it takes (the
//                            defaults written out), and whether the step is on
//   compare                  the A/B view on or off; compare_view: mode, divider, gain, and the
//                            pair its metrics and FLIP measure (displayed or hdr)
//   viewport                 the image shown without compare
//   content                  the built-in scene, a glTF file or an image file
//   tonemap, exposure        the curve, the multiplier, automatic exposure
//   scene                    camera orbit, animated objects, jitter and its length
// Reading checks everything (the schema, each step against its family: an unknown family, method
// or parameter is refused with the reason) before anything is applied: a bad preset changes
// nothing.
#include "app_state.h"
#include "runtime/run_options.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>

namespace filterlab::app {

class PresetError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Preset {
  ChainConfig chain, compare_chain;
  bool compare = false;
  passes::CompareSettings compare_view;  // mode, divider_x, gain
  bool metrics_on_hdr = false;           // compare_view's "metrics": the HDR outputs, not the displayed pair
  std::string viewport = "final";
  std::string image_file, scene_file;  // at most one; both empty: the built-in scene
  passes::Display display;
  bool orbit_camera = true, animate_objects = true, jitter = false;
  uint32_t jitter_length = 8;
};

// Every parameter of each step written out (the defaults the family derives included).
nlohmann::json preset_json(const Preset& preset);
// Accepts a preset file's object or a screenshot sidecar's (its "preset" object). Throws
// PresetError naming what is wrong.
Preset preset_from_json(const nlohmann::json& j);

void save_preset(const std::filesystem::path& path, const Preset& preset);  // atomic
Preset load_preset(const std::filesystem::path& path);  // PresetError for an unreadable file too

// The window's state as a preset, and a preset applied to it (content files are loaded by the
// caller first, so that a file that fails keeps the state).
Preset preset_of(const AppState& state);
void apply_preset(const Preset& preset, AppState& state);
// A run's options as a preset (`run --headless --save-chain`), and a preset as the options
// (`--load-chain`: the chain, content, display and scene; the window takes the rest from
// window_options.preset).
struct WindowOptions;
Preset preset_of(const runtime::RunOptions& run, const WindowOptions& window);
void apply_preset(const Preset& preset, runtime::RunOptions& run, WindowOptions& window);

}  // namespace filterlab::app
