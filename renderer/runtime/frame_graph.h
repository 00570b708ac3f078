#pragma once
// The frame every run renders, headless or in the window: scene -> the chain's filters -> tonemap
// -> "final". The returned objects own what the declared passes use, so they must outlive the
// executor that records them.
#include "filters/chain.h"
#include "passes/scene_pass.h"
#include "passes/still_image_pass.h"
#include "passes/tonemap_pass.h"
#include "runtime/run_options.h"

#include <memory>
#include <vector>

namespace filterlab::runtime {

struct ChainGraph {
  std::unique_ptr<passes::ScenePass> scene;  // or, for RunOptions::image, still
  std::unique_ptr<passes::StillImagePass> still;
  std::vector<std::unique_ptr<filters::Filter>> filters;
  std::unique_ptr<passes::TonemapPass> tonemap;
};

// What the scene offers a chain's filters: its colour, depth, motion and camera.
filters::FilterInputs scene_inputs(const passes::ScenePass& scene);

// What a still image offers: its colour and a fixed camera (no depth, no motion).
filters::FilterInputs still_inputs(const passes::StillImagePass& still);

// The content a run starts from, loaded before any device is opened: RunOptions::image decoded into
// RunOptions::still (every step checked against what a still image offers: no depth or motion,
// ChainError), or RunOptions::scene_file into scene_model (its notes printed to stderr); a bad file
// is io::InputError (exit 2). Nothing where there is neither or it is loaded already.
void load_content(RunOptions& options);

// Each filter's images are named after it: "copy", then "copy.2" for a second one.
ChainGraph build_chain_graph(graph::RenderGraph& graph, const passes::PassEnv& env, const RunOptions& options,
                             const std::vector<filters::FilterStep>& steps);

// Throws UnknownImageError, listing the graph's images, for a name the graph does not have.
void check_images_exist(const graph::RenderGraph& graph, const std::vector<std::string>& names);
// Throws UnknownImageError for an image whose format a capture cannot convert to floats (a packed
// accumulation, say).
void check_images_capturable(const graph::RenderGraph& graph, const std::vector<std::string>& names);

// The images every frame of this chain has, known without a device: the scene's colour, depth and
// motion (a still image: its colour and "image"), each step's image (filters::step_image_names) and
// "final".
std::vector<std::string> frame_image_names(const std::vector<filters::FilterStep>& steps, bool still = false);
// Before any device is opened: throws UnknownImageError for a name that is none of those and not
// under a step's name ("gaussian.h", a step's own image, is checked by check_images_exist once the
// graph is declared, which takes the device's pipelines).
// `also` names images some other part of the graph declares (the window's).
void check_image_names_before_device(const std::vector<filters::FilterStep>& steps,
                                     const std::vector<std::string>& names,
                                     const std::vector<std::string>& also = {}, bool still = false);

}  // namespace filterlab::runtime
