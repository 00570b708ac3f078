#include "passes/still_image_pass.h"

#include "graph/executor.h"
#include "passes/passes_config.h"
#include "passes/scene_pass.h"
#include "passes/simple_pass.h"

#include <algorithm>

namespace filterlab::passes {

StillImagePass::StillImagePass(const PassEnv& env, const io::ImageF& image)
    : env_(env),
      upload_(env, image, VK_FORMAT_R32G32B32A32_SFLOAT, UploadPass::When::Once),
      image_size_{image.width, image.height} {}

void StillImagePass::add_to(graph::RenderGraph& graph) {
  upload_.add_to(graph, kImage);
  graph.declare_image(ScenePass::kColor, {VK_FORMAT_R32G32B32A32_SFLOAT});
  const VkExtent2D image = image_size_;
  SimplePass(env_, "fit image", ComputeShader{"passes/fit.comp"})
      .sample(BINDING_SOURCE, kImage, graph::Sampling::Linear)
      .store(BINDING_DESTINATION, ScenePass::kColor)
      .constants_from<shader::FitPush>([image](graph::PassContext& ctx) {
        const VkExtent2D frame = ctx.extent(ScenePass::kColor);
        const float scale =
            std::min(float(frame.width) / float(image.width), float(frame.height) / float(image.height));
        return shader::FitPush{scale, 0.5f * (float(frame.width) - scale * float(image.width)),
                               0.5f * (float(frame.height) - scale * float(image.height)),
                               frame.width == image.width && frame.height == image.height ? 1u : 0u};
      })
      .dispatch_over(ScenePass::kColor, FIT_GROUP, FIT_GROUP)
      .add_to(graph);
}

}  // namespace filterlab::passes
