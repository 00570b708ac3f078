#pragma once
// Uploads a CPU image into a graph image (a transfer pass), so a filter can run on an image file
// or a test pattern instead of the scene. Every frame by default; `once` records the copy only in
// the first frame (the benchmark: its inputs stay resident and the copy cannot warm the caches).
#include "graph/graph.h"
#include "io/image_io.h"
#include "passes/pass_env.h"
#include "vk/resources.h"

#include <memory>

namespace filterlab::passes {

// An image converted to a graph format in a host-visible buffer, once: any 16- or 32-bit float format
// with 1, 2 or 4 channels (RGBA32F keeps colours exact); missing channels become 0 (alpha 1), extra
// ones are dropped. Many uploads may share one (bench and tune upload the same inputs in every case).
struct StagedImage {
  StagedImage(const PassEnv& env, const io::ImageF& image, VkFormat format);
  vk::Buffer buffer;
  VkFormat format;
  uint32_t width, height;
};

class UploadPass {
 public:
  enum class When { EveryFrame, Once };
  UploadPass(const PassEnv& env, const io::ImageF& image, VkFormat format, When when = When::EveryFrame);
  explicit UploadPass(std::shared_ptr<const StagedImage> staged, When when = When::EveryFrame);
  void add_to(graph::RenderGraph& graph, const std::string& name);

 private:
  std::shared_ptr<const StagedImage> staged_;
  When when_;
  bool uploaded_ = false;
};

}  // namespace filterlab::passes
