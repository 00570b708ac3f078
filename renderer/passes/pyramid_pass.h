#pragma once
// The box pyramid of an image in one compute dispatch (shaders/passes/pyramid.comp): level k + 1's
// texel i is the mean of level k's texels 2i and 2i + 1 on each axis (sizes round up; past an odd
// edge the last texel repeats), each level rounded to the image's format before the next is made.
// Each level is its own graph image, `prefix.level<k>`, and the one pass writes them all.
// The shader adds neighbours across lanes by subgroup shuffles: a caller checks that the device has
// them in compute shaders, in subgroups of 2 to PYRAMID_THREADS invocations
// (filters::subgroup_shuffles_in_compute).
#include "graph/graph.h"
#include "passes/pass_env.h"
#include "vk/resources.h"

#include <string>
#include <vector>

namespace filterlab::passes {

class PyramidPass {
 public:
  explicit PyramidPass(const PassEnv& env);

  // Declares levels 1..n of `input`'s pyramid, n = PYRAMID_LOCAL_LEVELS when `levels` is no more
  // than that (each group's own levels; no hand-over between groups) and PYRAMID_MAX_LEVELS
  // otherwise, in `format` (RGBA16F or RGBA32F), and the pass `pass_name` that writes them. Returns
  // the level names, `input` first.
  std::vector<std::string> add_to(graph::RenderGraph& graph, const std::string& input, VkFormat format,
                                  int levels, const std::string& prefix, const std::string& pass_name);

 private:
  PassEnv env_;
  // The groups that have finished their tile, one count per frame-in-flight slot, made with the
  // first full pyramid (a local one hands nothing over): zeroed once, and each dispatch's last group
  // sets it back to 0.
  std::vector<vk::Buffer> counters_;
};

}  // namespace filterlab::passes
