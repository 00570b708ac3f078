#include "passes/tonemap_pass.h"

#include "graph/executor.h"

namespace filterlab::passes {

TonemapPass::TonemapPass(const PassEnv& env) {
  pipeline_ = vk::make_pipeline(
      env.pipelines, env.vk, env.shaders,
      vk::ComputePipelineDesc{
          "passes/tonemap.comp",
          {{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE}, sizeof(float)},
          {}});
}

void TonemapPass::add_to(graph::RenderGraph& graph, const std::string& input, const std::string& output,
                         const std::string& pass_name) {
  graph.declare_image(output, {VK_FORMAT_R8G8B8A8_UNORM});
  graph.add_pass(pass_name, graph::PassKind::Compute)
      .read(input, graph::Usage::SampledCompute)
      .write(output, graph::Usage::StorageWriteCompute)
      .execute([this, input, output](graph::PassContext& ctx) {
        ctx.bind(*pipeline_)
            .sampled(0, input)
            .storage(1, output)
            .constants(exposure)
            .dispatch_over(output, 16, 16);
      });
}

}  // namespace filterlab::passes
