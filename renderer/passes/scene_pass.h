#pragma once
// Renders a scene (the built-in procedural one, or a glTF file: scene::SceneModel) into "scene"
// (RGBA16F), "depth" (D32) and "motion" (RG16F, pixels moved since the previous frame, jitter
// excluded).
#include "graph/graph.h"
#include "passes/camera_feed.h"
#include "passes/pass_env.h"
#include "scene/scene_content.h"
#include "vk/resources.h"

#include <memory>

namespace filterlab::passes {

class ScenePass {
 public:
  ScenePass(const PassEnv& env, const scene::SceneSettings& settings,
            std::shared_ptr<const scene::SceneModel> model = scene::builtin_scene());
  void add_to(graph::RenderGraph& graph);
  scene::SceneSettings& settings() { return settings_; }
  // Filled each time the pass records a frame (filters read it in the same frame).
  const CameraFeed& camera() const { return camera_; }

  static constexpr const char* kColor = "scene";
  static constexpr const char* kDepth = "depth";
  static constexpr const char* kMotion = "motion";

 private:
  void record(graph::PassContext& ctx);
  void upload_mesh();
  PassEnv env_;
  scene::SceneSettings settings_;
  std::shared_ptr<const scene::SceneModel> model_;
  vk::Buffer vertices_, indices_;
  uint32_t index_count_ = 0;
  std::vector<vk::Buffer> cameras_, objects_;  // per frame in flight, host-visible
  CameraFeed camera_;
  VkExtent2D last_extent_{};
  bool recorded_ = false;
  vk::PipelineRef pipeline_;
};

}  // namespace filterlab::passes
