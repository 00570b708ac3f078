#pragma once
// Exposure, a tonemapping curve and the sRGB curve: HDR input -> "final", an RGBA8 image holding
// sRGB-encoded values, ready to display or save. With automatic exposure, two small passes before
// it ("<pass>.exposure", "<pass>.exposure finish") measure the input's geometric mean luminance.
#include "graph/graph.h"
#include "passes/pass_env.h"
#include "passes/tonemap_curves.h"

#include <string>

namespace filterlab::passes {

class TonemapPass {
 public:
  explicit TonemapPass(const PassEnv& env);
  // Declares `output` (RGBA8, the output size) and the pass `pass_name` writing it. One TonemapPass
  // may be added several times with other names (the window's A/B view tonemaps its B chain into
  // "b.final" through "b.tonemap"). Every use reads the curve and the exposure when it is recorded;
  // `display.automatic` is read here: it adds the measuring passes.
  // `exposure_of`: with automatic exposure, the tonemap pass whose measurement this one takes (the
  // A/B view's B side takes A's, so that the two differ by their filters alone); empty: its own.
  void add_to(graph::RenderGraph& graph, const std::string& input, const std::string& output = kOutput,
              const std::string& pass_name = "tonemap", const std::string& exposure_of = "");
  passes::Display display;

  static constexpr const char* kOutput = "final";

 private:
  PassEnv env_;
};

}  // namespace filterlab::passes
