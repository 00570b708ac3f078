#pragma once
// A still image in place of the scene (`run --image FILE`): the image uploaded once at its own size
// ("image") and drawn into the frame's colour (ScenePass::kColor, RGBA32F, the run's size) as stored
// where the sizes match, else scaled to fit with the aspect kept and black bars. There is no depth
// and no motion: a chain step that reads them is refused before the device is opened
// (filters::check_scene_inputs); the camera is a fixed one whose history is invalid in the first
// frame, as for `filterlab filter`.
#include "graph/graph.h"
#include "io/image_io.h"
#include "passes/camera_feed.h"
#include "passes/pass_env.h"
#include "passes/upload_pass.h"

namespace filterlab::passes {

class StillImagePass {
 public:
  static constexpr const char* kImage = "image";

  StillImagePass(const PassEnv& env, const io::ImageF& image);
  // Declares kImage and ScenePass::kColor (the graph's default size: the run's).
  void add_to(graph::RenderGraph& graph);
  const CameraFeed& camera() const { return camera_; }

 private:
  PassEnv env_;
  UploadPass upload_;
  VkExtent2D image_size_;
  CameraFeed camera_;
};

}  // namespace filterlab::passes
