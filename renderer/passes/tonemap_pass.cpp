#include "passes/tonemap_pass.h"

#include "graph/executor.h"

namespace filterlab::passes {

TonemapPass::TonemapPass(const PassEnv& env) {
  pipeline_ = std::make_unique<vk::Pipeline>(
      env.vk, env.shaders,
      vk::ComputePipelineDesc{"passes/tonemap.comp",
                              {{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE},
                               sizeof(float)},
                              {}});
}

void TonemapPass::add_to(graph::RenderGraph& graph, const std::string& input) {
  graph.declare_image(kOutput, {VK_FORMAT_R8G8B8A8_UNORM});
  graph.add_pass("tonemap", graph::PassKind::Compute)
      .read(input, graph::Usage::SampledCompute)
      .write(kOutput, graph::Usage::StorageWriteCompute)
      .execute([this, input](graph::PassContext& ctx) {
        ctx.bind(*pipeline_).sampled(0, input).storage(1, kOutput).constants(exposure).dispatch_over(kOutput, 16, 16);
      });
}

}  // namespace filterlab::passes
