#pragma once
// What the window shows and the panel edits. The render graph is a function of the "graph" part
// (chains, compare on/off, viewport source): changing it rebuilds the graph between frames. The
// rest (scene, exposure, compare view settings) is read by the passes every frame.
#include "filters/chain.h"
#include "io/image_io.h"
#include "passes/compare_pass.h"
#include "passes/tonemap_curves.h"
#include "passes/view_pass.h"
#include "scene/scene_content.h"
#include "ui/layout.h"

#include <memory>
#include <string>
#include <vector>

namespace filterlab::app {

struct ChainEntry {
  filters::FilterStep step;
  bool enabled = true;
};

struct ChainConfig {
  std::vector<ChainEntry> entries;

  static ChainConfig parse(const std::string& spec);  // --chain syntax
  std::vector<filters::FilterStep> enabled_steps() const;
  std::string spec() const;  // the enabled steps, in --chain syntax
  friend bool operator==(const ChainConfig&, const ChainConfig&);
};

struct GraphConfig {
  ChainConfig chain_a, chain_b;
  // A still image in place of the scene (run --image, or opened in the panel), and its file.
  std::shared_ptr<const io::ImageF> still;
  std::string still_file;
  std::shared_ptr<const scene::SceneModel> scene_model;  // run --scene FILE; null: the built-in scene
  std::string scene_file;                                // its file
  bool compare = false;            // A/B: chain B beside chain A, metrics and the compare view
  std::string viewport = "final";  // without compare: the graph image shown
  bool auto_exposure = false;      // the tonemap's measuring passes (--exposure auto)
  friend bool operator==(const GraphConfig&, const GraphConfig&) = default;
};

// The pixel inspector's pixel, in the graph image's pixels (the viewport's): the one under the cursor,
// or, pinned (a right click in the viewport, or the window script's inspect@F:X,Y), this one.
struct Inspector {
  bool pinned = false;
  int32_t x = 0, y = 0;
};

struct AppState {
  GraphConfig graph;
  scene::SceneSettings scene;
  float exposure = 1.0f;  // a multiplier; with graph.auto_exposure, on top of the automatic one
  passes::Tonemapper tonemapper = passes::Tonemapper::Aces;
  passes::Display display() const { return {tonemapper, exposure, graph.auto_exposure}; }
  bool paused = false;
  uint64_t animation_frame = 0;  // the scene time shown (frames of kFixedTimeStep)
  bool step_once = false;        // while paused: advance one frame
  bool gpu_timing = true;
  bool show_ui = true;
  Columns columns;  // the side columns, open or collapsed (ui/layout.h)
  Inspector inspector;
  ViewZoom zoom;  // how the viewport shows the graph's image (ui/layout.h)
  // The A/B metrics the panel shows: over the displayed images (tonemapped, sRGB-encoded, 8 bits,
  // as a PNG capture stores them), or over the chains' HDR outputs (linear radiance).
  bool metrics_on_hdr = false;
  std::string content_path;                 // the Scene section's file field, as typed
  std::string preset_path = "preset.json";  // the Preset section's file field
  passes::CompareSettings compare;
  passes::ViewSettings view;
};

}  // namespace filterlab::app
