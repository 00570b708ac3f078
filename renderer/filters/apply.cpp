#include "filters/apply.h"

#include "graph/executor.h"
#include "graph/readback.h"
#include "passes/upload_pass.h"

namespace filterlab::filters {

io::ImageF apply_filter(const vk::Context& ctx, const vk::ShaderSource& shaders, const io::ImageF& input,
                        const FilterStep& step, VkFormat input_format) {
  passes::PassEnv env{ctx, shaders, 1};
  graph::RenderGraph graph;
  passes::UploadPass upload(env, input, input_format);
  upload.add_to(graph, "input");
  std::unique_ptr<Filter> filter = make_filter(step, env);
  const std::string output = filter->add_to(graph, "input", step.filter);

  graph::Executor executor(ctx, 1, false);
  executor.prepare(graph, {output}, {input.width, input.height});
  vk::OneShotCommands commands(ctx);
  commands.run([&](VkCommandBuffer cmd) { executor.record(cmd, 0, 0); });
  return graph::to_float_image(executor.read_image(output));
}

}  // namespace filterlab::filters
