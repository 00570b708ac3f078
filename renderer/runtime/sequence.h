#pragma once
// The scene, a chain and the tonemap, recorded one frame at a time, with images read back after
// each: for evaluations and tests that change the scene between frames (a paused pose, a fixed
// sub-pixel offset) or read every frame (filterlab evaluate, tests/gpu/taa_test.cpp).
#include "graph/executor.h"
#include "io/image_io.h"
#include "runtime/frame_graph.h"
#include "runtime/frame_ring.h"

#include <string>
#include <vector>

namespace filterlab::runtime {

class Sequence {
 public:
  // outputs: the images read back (and kept alive by the graph).
  Sequence(const passes::PassEnv& env, const scene::SceneSettings& settings,
           const std::vector<filters::FilterStep>& chain, VkExtent2D extent, std::vector<std::string> outputs,
           std::shared_ptr<const scene::SceneModel> model = nullptr);
  scene::SceneSettings& settings() { return objects_.scene->settings(); }
  const passes::CameraFeed& camera() const { return objects_.scene->camera(); }
  void resize(VkExtent2D extent);
  void run();  // records, submits and waits for the next frame
  io::ImageF image(const std::string& name);
  uint64_t frames() const { return frame_; }

 private:
  passes::PassEnv env_;
  graph::RenderGraph graph_;
  ChainGraph objects_;
  graph::Executor executor_;
  FrameRing ring_;
  std::vector<std::string> outputs_;
  uint64_t frame_ = 0;
};

}  // namespace filterlab::runtime
