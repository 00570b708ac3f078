#pragma once
// Uploads a CPU image into a graph image every frame (a transfer pass), so a filter can run on
// an image file or a test pattern instead of the scene.
#include "graph/graph.h"
#include "io/image_io.h"
#include "passes/pass_env.h"
#include "vk/resources.h"

namespace filterlab::passes {

class UploadPass {
public:
  // The graph image is RGBA32F (exact) or RGBA16F; missing channels become 0 (alpha 1).
  UploadPass(const PassEnv& env, const io::ImageF& image, VkFormat format);
  void add_to(graph::RenderGraph& graph, const std::string& name);

private:
  vk::Buffer staging_;
  VkFormat format_;
  uint32_t width_, height_;
};

}  // namespace filterlab::passes
