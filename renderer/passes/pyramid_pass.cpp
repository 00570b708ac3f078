#include "passes/pyramid_pass.h"

#include "passes/passes_config.h"
#include "passes/simple_pass.h"

#include <stdexcept>

namespace filterlab::passes {

PyramidPass::PyramidPass(const PassEnv& env) : env_(env) {}

std::vector<std::string> PyramidPass::add_to(graph::RenderGraph& graph, const std::string& input,
                                             VkFormat format, int levels, const std::string& prefix,
                                             const std::string& pass_name) {
  const bool local = levels <= PYRAMID_LOCAL_LEVELS;
  const int count = local ? PYRAMID_LOCAL_LEVELS : PYRAMID_MAX_LEVELS;
  const char* precision = format == VK_FORMAT_R32G32B32A32_SFLOAT ? "fp32" : "fp16";
  if (format != VK_FORMAT_R32G32B32A32_SFLOAT && format != VK_FORMAT_R16G16B16A16_SFLOAT)
    throw std::invalid_argument("PyramidPass: RGBA16F or RGBA32F only");

  SimplePass pass(
      env_, pass_name,
      ComputeShader{std::string("passes/pyramid.comp#") + (local ? "local." : "full.") + precision});
  pass.sample(BINDING_PYRAMID_SOURCE, input, graph::Sampling::Nearest);
  std::vector<std::string> names = {input};
  for (int k = 1; k <= count; ++k) {
    names.push_back(prefix + ".level" + std::to_string(k));
    graph.declare_image(names.back(), {format, graph::SizeRule::relative_to(names[size_t(k) - 1], 0.5f)});
    pass.store(BINDING_PYRAMID_LEVEL + uint32_t(k) - 1, names.back());
  }
  if (!local) {
    // Zeroed once, before any frame: each dispatch's last group sets it back to 0.
    const uint32_t zero = 0;
    while (counters_.size() < env_.frames_in_flight)
      counters_.push_back(
          vk::uploaded_buffer(env_.vk, &zero, sizeof zero, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                              VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                              VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                              "pyramid counter " + std::to_string(counters_.size())));
    const std::string counter = pass_name + " counter";
    graph.import_buffer(counter, per_slot(counters_));
    pass.graph_buffer(BINDING_PYRAMID_COUNTER, counter, graph::BufferUsage::StorageReadWriteCompute);
  }
  const uint32_t tiles =
      format == VK_FORMAT_R32G32B32A32_SFLOAT ? PYRAMID_GROUP_TILES_FLOAT : PYRAMID_GROUP_TILES_HALF;
  pass.dispatch_over(input, tiles * PYRAMID_TILE, PYRAMID_TILE).add_to(graph);
  return names;
}

}  // namespace filterlab::passes
