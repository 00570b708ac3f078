#include "passes/tonemap_pass.h"

#include "passes/passes_config.h"
#include "passes/simple_pass.h"

namespace filterlab::passes {
namespace {

struct TonemapPush {
  float exposure;
  uint32_t curve;  // TONEMAP_*
};

}  // namespace

TonemapPass::TonemapPass(const PassEnv& env) : env_(env) {}

void TonemapPass::add_to(graph::RenderGraph& graph, const std::string& input, const std::string& output,
                         const std::string& pass_name, const std::string& exposure_of) {
  graph.declare_image(output, {VK_FORMAT_R8G8B8A8_UNORM});
  const bool automatic = display.automatic;
  const std::string result = (exposure_of.empty() ? pass_name : exposure_of) + ".exposure";
  if (automatic && exposure_of.empty()) {
    const std::string partials = pass_name + ".exposure partials";
    graph.declare_buffer(
        partials, {graph::BufferSize::per_tile(input, EXPOSURE_TILE, EXPOSURE_TILE, 4 * sizeof(float))});
    graph.declare_buffer(result, {graph::BufferSize::fixed(sizeof(float))});
    SimplePass(env_, pass_name + ".exposure", ComputeShader{"passes/exposure_reduce.comp"})
        .sample(BINDING_SOURCE, input)
        .graph_buffer(BINDING_EXPOSURE_PARTIALS, partials, graph::BufferUsage::StorageWriteCompute)
        .dispatch_over(input, EXPOSURE_TILE, EXPOSURE_TILE)
        .add_to(graph);
    SimplePass(env_, pass_name + ".exposure finish", ComputeShader{"passes/exposure_finish.comp"})
        .graph_buffer(BINDING_EXPOSURE_PARTIALS, partials, graph::BufferUsage::StorageReadCompute)
        .graph_buffer(BINDING_EXPOSURE_RESULT, result, graph::BufferUsage::StorageWriteCompute)
        .constants_from<uint32_t>([input](graph::PassContext& ctx) {
          const VkExtent2D e = ctx.extent(input);
          return ((e.width + EXPOSURE_TILE - 1) / EXPOSURE_TILE) *
                 ((e.height + EXPOSURE_TILE - 1) / EXPOSURE_TILE);
        })
        .dispatch([](graph::PassContext&) {
          return std::array<uint32_t, 2>{1, 1};
        })
        .add_to(graph);
  }
  SimplePass pass(env_, pass_name,
                  ComputeShader{automatic ? "passes/tonemap.comp#auto" : "passes/tonemap.comp#fixed"});
  pass.sample(BINDING_SOURCE, input, graph::Sampling::Linear).store(BINDING_DESTINATION, output);
  if (automatic) pass.graph_buffer(BINDING_EXPOSURE_RESULT, result, graph::BufferUsage::StorageReadCompute);
  pass.constants_from<TonemapPush>([this](graph::PassContext&) {
        return TonemapPush{display.exposure, uint32_t(display.tonemapper)};
      })
      .dispatch_over(output, 16, 16)
      .add_to(graph);
}

}  // namespace filterlab::passes
