// Fragment-shader blurs: the baselines the quad-derivative paper compares against.
// A full-screen triangle per pass; the radius is specialization constant 0 so loops unroll.
#include "filters/blur_methods.h"
#include "graph/executor.h"

namespace filterlab::filters {
namespace {

class FragmentBlur : public BlurPasses {
 public:
  // shader: file under shaders/filters/blur/; two_pass: horizontal then vertical (constant 1).
  FragmentBlur(const BlurEnv& env, const std::string& shader, bool two_pass)
      : env_(env.pass_env), settings_(env.settings), weights_(env.weights), taps_(env.taps) {
    pipelines_.push_back(make_pipeline(shader, 0));
    if (two_pass) pipelines_.push_back(make_pipeline(shader, 1));
  }

  std::string add_to(graph::RenderGraph& graph, const std::string& input, const std::string& name) override {
    if (pipelines_.size() == 2) {
      add_pass(graph, input, name + ".horizontal", input, pipelines_[0]);
      add_pass(graph, input, name, name + ".horizontal", pipelines_[1]);
    } else {
      add_pass(graph, input, name, input, pipelines_[0]);
    }
    return name;
  }

 private:
  vk::PipelineRef make_pipeline(const std::string& shader, uint32_t direction) {
    vk::GraphicsPipelineDesc desc;
    desc.vertex_shader = "filters/fullscreen.vert";
    desc.fragment_shader = "filters/blur/" + shader;
    desc.layout.bindings = {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                            VK_DESCRIPTOR_TYPE_STORAGE_BUFFER};
    desc.color_formats = {settings_.format()};
    desc.specialization = {static_cast<uint32_t>(settings_.kernel.radius), direction};
    return vk::make_pipeline(env_.pipelines, env_.vk, env_.shaders, desc);
  }

  void add_pass(graph::RenderGraph& graph, const std::string& size_of, const std::string& pass,
                const std::string& from, const vk::PipelineRef& pipeline) {
    // Exact methods fetch texels; bilinear ones let the sampler blend pairs of weights.
    const graph::Sampling sampling = settings_.method->exact ? graph::Sampling::Nearest : graph::Sampling::Linear;
    graph.declare_image(pass, {settings_.format(), graph::SizeRule::relative_to(size_of)});
    graph.add_pass(pass, graph::PassKind::Graphics)
        .read(from, graph::Usage::SampledFragment)
        .color_overwrite(pass)
        .execute([this, from, &pipeline, sampling](graph::PassContext& ctx) {
          ctx.bind(*pipeline)
              .sampled(0, from, sampling)
              .storage_buffer(1, weights_)
              .storage_buffer(2, taps_)
              .draw(3);
        });
  }

  const passes::PassEnv& env_;
  const BlurSettings& settings_;
  const vk::Buffer& weights_;
  const vk::Buffer& taps_;
  std::vector<vk::PipelineRef> pipelines_;  // filled once: add_pass keeps references to them
};

MethodCost cost_full2d(int r) {
  return {common::fetches_full2d(r)};
}
MethodCost cost_separable(int r) {
  return {common::fetches_separable(r)};
}
MethodCost cost_separable_linear(int r) {
  return {common::fetches_separable_linear(r)};
}
MethodCost cost_full2d_linear(int r) {
  return {common::fetches_full2d_linear(r)};
}

}  // namespace

std::vector<BlurMethod> fragment_blur_methods() {
  return {
      {"frag.full2d", "fragment", true, 1, "the default: (2r+1)^2 fetches per pixel", cost_full2d,
       always_supported,
       [](const BlurEnv& e) -> std::unique_ptr<BlurPasses> {
         return std::make_unique<FragmentBlur>(e, "frag_full2d.frag", false);
       }},
      {"frag.separable", "fragment", true, 2, "horizontal then vertical, 2r+1 fetches each", cost_separable,
       always_supported,
       [](const BlurEnv& e) -> std::unique_ptr<BlurPasses> {
         return std::make_unique<FragmentBlur>(e, "frag_separable.frag", true);
       }},
      {"frag.separable_linear", "fragment", false, 2, "separable with bilinear fetches, r+1 per pass",
       cost_separable_linear, always_supported,
       [](const BlurEnv& e) -> std::unique_ptr<BlurPasses> {
         return std::make_unique<FragmentBlur>(e, "frag_separable_linear.frag", true);
       }},
      {"frag.full2d_linear", "fragment", false, 1, "2D bilinear fetches, (r+1)^2 per pixel (Chapman)",
       cost_full2d_linear, always_supported,
       [](const BlurEnv& e) -> std::unique_ptr<BlurPasses> {
         return std::make_unique<FragmentBlur>(e, "frag_full2d_linear.frag", false);
       }},
  };
}

}  // namespace filterlab::filters
