#pragma once
// Uploads a CPU image into a graph image (a transfer pass), so a filter can run on an image file
// or a test pattern instead of the scene. Every frame by default; `once` records the copy only in
// the first frame (the benchmark: its inputs stay resident and the copy cannot warm the caches).
#include "graph/graph.h"
#include "io/image_io.h"
#include "passes/pass_env.h"
#include "vk/resources.h"

namespace filterlab::passes {

class UploadPass {
 public:
  // The graph image is any 16- or 32-bit float format with 1, 2 or 4 channels (RGBA32F keeps colours
  // exact); missing channels become 0 (alpha 1), extra ones are dropped.
  enum class When { EveryFrame, Once };
  UploadPass(const PassEnv& env, const io::ImageF& image, VkFormat format, When when = When::EveryFrame);
  void add_to(graph::RenderGraph& graph, const std::string& name);

 private:
  vk::Buffer staging_;
  VkFormat format_;
  uint32_t width_, height_;
  When when_;
  bool uploaded_ = false;
};

}  // namespace filterlab::passes
