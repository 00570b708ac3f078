#pragma once
// Exposure, the ACES filmic fit (Narkowicz 2015) and the sRGB curve: HDR input -> "final",
// an RGBA8 image holding sRGB-encoded values, ready to display or save.
#include "graph/graph.h"
#include "passes/pass_env.h"

#include <string>

namespace filterlab::passes {

class TonemapPass {
 public:
  explicit TonemapPass(const PassEnv& env);
  // Declares `output` (RGBA8, the output size) and the pass `pass_name` writing it. One TonemapPass
  // may be added several times with other names (the window's A/B view tonemaps its B chain into
  // "b.final" through "b.tonemap"); every use reads `exposure` when it is recorded.
  void add_to(graph::RenderGraph& graph, const std::string& input, const std::string& output = kOutput,
              const std::string& pass_name = "tonemap");
  float exposure = 1.0f;

  static constexpr const char* kOutput = "final";

 private:
  PassEnv env_;
};

}  // namespace filterlab::passes
