#include "filters/copy_filter.h"

#include "graph/executor.h"

namespace filterlab::filters {

CopyFilter::CopyFilter(const passes::PassEnv& env) {
  pipeline_ = std::make_unique<vk::Pipeline>(
      env.vk, env.shaders,
      vk::ComputePipelineDesc{"filters/copy.comp",
                              {{VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE}, 0},
                              {}});
}

std::string CopyFilter::add_to(graph::RenderGraph& graph, const std::string& input, const std::string& name) {
  graph.declare_image(name, {VK_FORMAT_R16G16B16A16_SFLOAT, graph::SizeRule::relative_to(input)});
  graph.add_pass(name, graph::PassKind::Compute)
      .read(input, graph::Usage::StorageReadCompute)
      .write(name, graph::Usage::StorageWriteCompute)
      .execute([this, input, name](graph::PassContext& ctx) {
        ctx.bind(*pipeline_).storage(0, input).storage(1, name).dispatch_over(name, 16, 16);
      });
  return name;
}

}  // namespace filterlab::filters
