#include "filters/copy_filter.h"

#include "graph/executor.h"

namespace filterlab::filters {

VkFormat parse_copy_format(const FilterStep& step) {
  if (!step.method.empty()) throw ChainError("filter 'copy' has no methods (got '" + step.method + "')");
  VkFormat format = VK_FORMAT_R16G16B16A16_SFLOAT;
  for (const auto& [key, value] : step.params) {
    if (key != "precision")
      throw ChainError("filter 'copy' takes only precision=fp16|fp32, got '" + key + "'");
    if (value != "fp16" && value != "fp32")
      throw ChainError("precision wants fp16 or fp32, got '" + value + "'");
    if (value == "fp32") format = VK_FORMAT_R32G32B32A32_SFLOAT;
  }
  return format;
}

CopyFilter::CopyFilter(const passes::PassEnv& env, VkFormat format) : format_(format) {
  const char* shader =
      format == VK_FORMAT_R32G32B32A32_SFLOAT ? "filters/copy_fp32.comp" : "filters/copy.comp";
  pipeline_ = vk::make_pipeline(
      env.pipelines, env.vk, env.shaders,
      vk::ComputePipelineDesc{
          shader, {{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE}, 0}, {}});
}

std::string CopyFilter::add_to(graph::RenderGraph& graph, const std::string& input, const std::string& name) {
  graph.declare_image(name, {format_, graph::SizeRule::relative_to(input)});
  graph.add_pass(name, graph::PassKind::Compute)
      .read(input, graph::Usage::SampledCompute)
      .write(name, graph::Usage::StorageWriteCompute)
      .execute([this, input, name](graph::PassContext& ctx) {
        ctx.bind(*pipeline_)
            .sampled(0, input, graph::Sampling::Nearest)
            .storage(1, name)
            .dispatch_over(name, 16, 16);
      });
  return name;
}

}  // namespace filterlab::filters
