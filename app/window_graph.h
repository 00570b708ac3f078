#pragma once
// The window's graph, a function of GraphConfig:
//
//   scene -> chain A -> tonemap -> "final"
//         -> chain B -> tonemap -> "b.final"        (compare on; B's images are prefixed "b.")
//   compare: metrics of A's and B's HDR outputs and of their displayed (tonemapped, 8-bit) images,
//            LDR-FLIP of the displayed pair ("flip", the map); split / side / difference / FLIP view
//            of the tonemapped pair
//   or (compare off) view: any graph image, visualized by its kind   -> "viewport"
//   inspect: A's and B's outputs and displayed images at one pixel (B: A's without compare)
//   compose: "viewport" copied into the window's viewport region       -> "window" (the surface's size)
//
// The caller adds the UI pass (drawing over "window") and the present pass (copying "window" to
// the swapchain image). "viewport" stays UI-free: screenshots save it.
#include "app_state.h"
#include "graph/graph.h"
#include "passes/compare_pass.h"
#include "passes/flip_pass.h"
#include "passes/pass_env.h"
#include "passes/pixel_probe.h"
#include "passes/scene_pass.h"
#include "passes/still_image_pass.h"
#include "passes/tonemap_pass.h"
#include "passes/view_pass.h"
#include "ui/layout.h"

#include <memory>
#include <string>
#include <vector>

namespace filterlab::app {

struct WindowGraph {
  static constexpr const char* kViewport = "viewport";
  static constexpr const char* kWindow = "window";
  static constexpr const char* kFinalB = "b.final";
  static constexpr const char* kFlip = "flip";         // compare on: the FLIP map of the displayed pair
  static constexpr const char* kFlipHdr = "flip hdr";  // and of the chains' HDR outputs

  std::unique_ptr<passes::ScenePass> scene;  // or, with AppState::still, still
  std::unique_ptr<passes::StillImagePass> still;
  std::vector<std::unique_ptr<filters::Filter>> filters;
  std::unique_ptr<passes::TonemapPass> tonemap;  // both chains: "final" and (compare on) "b.final"
  std::unique_ptr<passes::ComparePass> compare;  // compare on: the metrics of the HDR outputs, the view
  std::unique_ptr<passes::ComparePass> compare_displayed;  // compare on: the metrics of the displayed pair
  std::unique_ptr<passes::FlipPass> flip;        // compare on: LDR-FLIP of the displayed pair, its map "flip"
  std::unique_ptr<passes::FlipPass> flip_hdr;    // and HDR-FLIP of the HDR outputs ("flip hdr")
  std::unique_ptr<passes::ViewPass> view;        // compare off
  std::unique_ptr<passes::PixelProbe> probe;     // the inspector: A's and B's linear and displayed values
  std::string output_a, output_b;                // the chains' HDR outputs
  std::vector<std::string> viewport_sources;     // images the viewport can show, in graph order
  // How the viewport shows the graph's image, set before each record (ui/layout.h): where the
  // viewport region starts in the window image, and the zoom and the part of the image it shows.
  struct Compose {
    VkOffset2D offset{};
    uint32_t zoom = 1;
    ShownRegion region;
  };
  std::shared_ptr<Compose> compose = std::make_shared<Compose>();
};

// The metrics of the displayed pair made by the frame last recorded in `slot`, with its FLIP where
// that frame took it; nullopt without compare or before the slot's first frame. The same of the HDR
// outputs.
std::optional<passes::CompareMetrics> displayed_metrics(const WindowGraph& graph, uint32_t slot);
std::optional<passes::CompareMetrics> hdr_metrics(const WindowGraph& graph, uint32_t slot);

// Throws filters::ChainError for a chain that cannot be built (unknown method, unsupported radius)
// and runtime::UnknownImageError for a viewport image the graph does not have.
WindowGraph build_window_graph(graph::RenderGraph& graph, const passes::PassEnv& env,
                               const GraphConfig& config, const AppState& state);

}  // namespace filterlab::app
