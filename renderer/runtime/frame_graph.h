#pragma once
// The frame every run renders, headless or in the window: scene -> the chain's filters -> tonemap
// -> "final". The returned objects own the pipelines the declared passes use, so they must outlive
// the executor that records them.
#include "filters/chain.h"
#include "runtime/headless_runner.h"
#include "passes/scene_pass.h"
#include "passes/tonemap_pass.h"

#include <memory>
#include <vector>

namespace filterlab::runtime {

struct ChainGraph {
  std::unique_ptr<passes::ScenePass> scene;
  std::vector<std::unique_ptr<filters::Filter>> filters;
  std::unique_ptr<passes::TonemapPass> tonemap;
};

// Adds the steps' filters reading `input`; returns the last image (`input` when there are none).
// Images are named prefix + the filter's name: "copy", then "copy.2" for a second one.
std::string add_chain(graph::RenderGraph& graph, const passes::PassEnv& env, const std::string& input,
                      const std::vector<filters::FilterStep>& steps, const std::string& prefix,
                      std::vector<std::unique_ptr<filters::Filter>>& filters);

// Each filter's images are named after it: "copy", then "copy.2" for a second one.
ChainGraph build_chain_graph(graph::RenderGraph& graph, const passes::PassEnv& env, const RunOptions& options,
                             const std::vector<filters::FilterStep>& steps);

// Throws UnknownImageError, listing the graph's images, for a name the graph does not have.
void check_images_exist(const graph::RenderGraph& graph, const std::vector<std::string>& names);

}  // namespace filterlab::runtime
