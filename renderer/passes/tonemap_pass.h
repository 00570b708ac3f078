#pragma once
// Exposure, the ACES filmic fit (Narkowicz 2015) and the sRGB curve: HDR input -> "final",
// an RGBA8 image holding sRGB-encoded values, ready to display or save.
#include "graph/graph.h"
#include "passes/pass_env.h"

#include <memory>

namespace filterlab::passes {

class TonemapPass {
public:
  explicit TonemapPass(const PassEnv& env);
  void add_to(graph::RenderGraph& graph, const std::string& input);
  float exposure = 1.0f;

  static constexpr const char* kOutput = "final";

private:
  std::unique_ptr<vk::Pipeline> pipeline_;
};

}  // namespace filterlab::passes
