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
#include <vector>

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
  void upload_assets();
  void draw(graph::PassContext& ctx, const vk::Pipeline& pipeline, const scene::Draw& draw);
  PassEnv env_;
  scene::SceneSettings settings_;
  std::shared_ptr<const scene::SceneModel> model_;
  // Uploaded when the first frame is recorded.
  bool uploaded_ = false;
  vk::Buffer vertices_, indices_, materials_;
  std::vector<vk::Image> textures_;  // the scene's images, then a white 1x1 (a slot without one)
  std::vector<std::unique_ptr<vk::Sampler>> samplers_;  // the scene's samplers, then the white one's
  std::vector<vk::Buffer> cameras_, objects_, lights_;  // per frame in flight, host-visible
  CameraFeed camera_;
  VkExtent2D last_extent_{};
  bool recorded_ = false;
  vk::PipelineRef opaque_, blended_;
};

}  // namespace filterlab::passes
