#include "passes/tonemap_pass.h"

#include "config.h"
#include "passes/simple_pass.h"

namespace filterlab::passes {

TonemapPass::TonemapPass(const PassEnv& env) : env_(env) {}

void TonemapPass::add_to(graph::RenderGraph& graph, const std::string& input, const std::string& output,
                         const std::string& pass_name) {
  graph.declare_image(output, {VK_FORMAT_R8G8B8A8_UNORM});
  SimplePass(env_, pass_name, ComputeShader{"passes/tonemap.comp"})
      .sample(BINDING_SOURCE, input, graph::Sampling::Linear)
      .store(BINDING_DESTINATION, output)
      .constants_from<float>([this](graph::PassContext&) { return exposure; })
      .dispatch_over(output, 16, 16)
      .add_to(graph);
}

}  // namespace filterlab::passes
