#include "filters/apply.h"

#include "graph/executor.h"
#include "graph/readback.h"
#include "passes/camera_feed.h"
#include "passes/upload_pass.h"

namespace filterlab::filters {

std::vector<io::ImageF> apply_to_each(const passes::PassEnv& env, const std::vector<io::ImageF>& inputs,
                                      const FilterStep& step, VkFormat input_format,
                                      const Registry& registry) {
  const ResolvedStep resolved = resolve(step, registry);
  for (Input needed : {Input::Depth, Input::Motion})
    if (resolved.needs(needed))
      throw ChainError(resolved.label() + " reads the scene's " + input_name(needed) +
                       ", which a still image has none of");
  for (const io::ImageF& input : inputs) check_extent(resolved, input.width, input.height);
  std::unique_ptr<Filter> filter = build_filter(resolved, env);
  static const passes::CameraFeed still_camera;  // a fixed camera on its first frame
  // Every graph stays alive until the last one ran: they share the filter's pipelines.
  struct Run {
    graph::RenderGraph graph;
    std::unique_ptr<passes::UploadPass> upload;
    std::string output;
  };
  std::vector<Run> runs(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    runs[i].upload = std::make_unique<passes::UploadPass>(env, inputs[i], input_format);
    runs[i].upload->add_to(runs[i].graph, "input");
    runs[i].output =
        filter->add_to(runs[i].graph, FilterInputs{"input", {}, {}, &still_camera}, resolved.family->name);
  }
  std::vector<io::ImageF> outputs;
  vk::OneShotCommands commands(env.vk);
  for (size_t i = 0; i < inputs.size(); ++i) {
    graph::Executor executor(env.vk, 1, false);
    executor.prepare(runs[i].graph, {runs[i].output}, {inputs[i].width, inputs[i].height});
    commands.run([&](VkCommandBuffer cmd) { executor.record(cmd, 0, 0); });
    outputs.push_back(graph::to_float_image(executor.read_image(runs[i].output)));
  }
  return outputs;
}

io::ImageF apply_filter(const vk::Context& ctx, const vk::ShaderSource& shaders, const io::ImageF& input,
                        const FilterStep& step, VkFormat input_format, const Registry& registry) {
  const passes::PassEnv env{ctx, shaders, 1};
  return apply_to_each(env, {input}, step, input_format, registry).at(0);
}

StepImages apply_filter_reading(const vk::Context& ctx, const vk::ShaderSource& shaders,
                                const io::ImageF& input, const FilterStep& step,
                                const std::vector<std::string>& images, VkFormat input_format) {
  const passes::PassEnv env{ctx, shaders, 1};
  const ResolvedStep resolved = resolve(step);
  for (Input needed : {Input::Depth, Input::Motion})
    if (resolved.needs(needed))
      throw ChainError(resolved.label() + " reads the scene's " + input_name(needed) +
                       ", which a still image has none of");
  check_extent(resolved, input.width, input.height);
  std::unique_ptr<Filter> filter = build_filter(resolved, env);
  static const passes::CameraFeed still_camera;
  graph::RenderGraph graph;
  passes::UploadPass upload(env, input, input_format);
  upload.add_to(graph, "input");
  const std::string output =
      filter->add_to(graph, FilterInputs{"input", {}, {}, &still_camera}, resolved.family->name);
  std::vector<std::string> outputs = {output};
  for (const std::string& name : images) {
    if (name == "input" || !graph.has_image(name)) {
      std::string made;
      for (const std::string& known : graph.image_names())
        if (known != "input") made += (made.empty() ? "" : ", ") + known;
      throw ChainError("the step " + resolved.label() + " makes no image '" + name + "'; it makes " + made);
    }
    outputs.push_back(name);
  }
  graph::Executor executor(env.vk, 1, false);
  executor.prepare(graph, outputs, {input.width, input.height});
  vk::OneShotCommands commands(env.vk);
  commands.run([&](VkCommandBuffer cmd) { executor.record(cmd, 0, 0); });
  StepImages result{graph::to_float_image(executor.read_image(output)), {}};
  for (const std::string& name : images)
    result.named.push_back(graph::to_float_image(executor.read_image(name)));
  return result;
}

}  // namespace filterlab::filters
