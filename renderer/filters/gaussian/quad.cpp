// Quad-exchange blurs (Zubatov & Shcherbakov, section 3.1): each invocation of a 2x2 quad reads
// (r+1)^2 texels and its quad neighbours hand it the partial sums of the rest, through fine
// derivatives in a fragment shader (frag.quad_derivative), coarse ones (frag.quad_derivative_coarse,
// not exact: the paper's tables 3 and 4), subgroup quad swaps in a compute shader
// (comp.quad_subgroup) or derivatives in a compute shader (comp.quad_derivative). One shader
// source for all four: shaders/filters/gaussian/quad_common.glsl.
#include "filters/device_checks.h"
#include "filters/gaussian/gaussian_config.h"
#include "filters/gaussian/methods.h"
#include "filters/precision.h"
#include "passes/simple_pass.h"

#include <bit>

namespace filterlab::filters::gaussian {
namespace {

// Constant 0 is the radius, 1 + k is w(k) = w(-k) for k in 0..kDesignMaxRadius (0 past the radius):
// the shaders take the kernel as constants, not from the weights buffer, because llvmpipe reads
// storage buffers as 0 in helper invocations (see quad_common.glsl). Same floats as that buffer.
std::vector<uint32_t> specialization(const ParamValues& params) {
  const common::KernelSpec spec = kernel_spec(params);
  const std::vector<double> weights = common::kernel_weights(spec);
  std::vector<uint32_t> words(2 + kDesignMaxRadius, 0);
  words[0] = static_cast<uint32_t>(spec.radius);
  for (int k = 0; k <= spec.radius; ++k)
    words[1 + k] = std::bit_cast<uint32_t>(static_cast<float>(weights[spec.radius + k]));
  return words;
}

class QuadBlur : public Filter {
 public:
  // variant: of quad.frag (fragment) or quad.comp (compute, completed by the precision).
  QuadBlur(const FilterEnv& env, Stage stage, const std::string& variant)
      : env_(env.pass_env),
        format_(precision_format(env.params)),
        stage_(stage),
        spec_(specialization(env.params)) {
    shader_ = stage == Stage::Fragment
                  ? "filters/gaussian/quad.frag#" + variant
                  : "filters/gaussian/quad.comp#" + variant + "." + precision_variant(format_);
  }

  std::string add_to(graph::RenderGraph& graph, const FilterInputs& inputs,
                     const std::string& name) override {
    graph.declare_image(name, {format_, graph::SizeRule::relative_to(inputs.color)});
    if (stage_ == Stage::Fragment) {
      passes::SimplePass(env_, name, passes::FragmentShader{shader_, format_, spec_})
          .sample(BINDING_SOURCE, inputs.color)
          .color(name)
          .add_to(graph);
    } else {
      passes::SimplePass(env_, name, passes::ComputeShader{shader_, spec_})
          .sample(BINDING_SOURCE, inputs.color)
          .store(BINDING_DESTINATION, name)
          .dispatch_over(name, QUAD_GROUP, QUAD_GROUP)
          .add_to(graph);
    }
    return name;
  }

 private:
  passes::PassEnv env_;
  VkFormat format_;
  Stage stage_;
  std::vector<uint32_t> spec_;
  std::string shader_;
};

Support support_compute_derivatives(const vk::Context& device, const ParamValues&) {
  const Support s = compute_derivatives(device);
  return s.available() ? up_to_design_radius() : s;
}

// Every pixel reads the (r+1)^2 texels at offsets T x T, T = {-r, -r+2, ..., r}; the three
// quad exchanges are neither fetches nor shared memory.
Method quad_method(const char* name, Stage stage, bool exact, const char* variant, const char* description,
                   std::function<Support(const vk::Context&, const ParamValues&)> support) {
  Method m;
  m.name = name;
  m.stage = stage;
  m.exact = exact;
  m.description = description;
  m.cost = [](const ParamValues& v) {
    const double r = v.integer("radius");
    return MethodCost{(r + 1) * (r + 1)};
  };
  m.support = std::move(support);
  m.create = [=](const FilterEnv& env) -> std::unique_ptr<Filter> {
    return std::make_unique<QuadBlur>(env, stage, variant);
  };
  return m;
}

}  // namespace

std::vector<Method> quad_methods() {
  auto always = [](const vk::Context&, const ParamValues&) { return up_to_design_radius(); };
  // quad_pixel() assumes full subgroups tiling a QUAD_GROUP^2-invocation workgroup.
  auto subgroup = [](const vk::Context& device, const ParamValues&) {
    Support s = subgroup_quads_in_compute(device, QUAD_GROUP * QUAD_GROUP);
    return s.available() ? up_to_design_radius() : s;
  };
  return {
      quad_method("frag.quad_derivative", Stage::Fragment, true, "fine",
                  "(r+1)^2 fetches, partial sums exchanged in the 2x2 quad through fine derivatives", always),
      quad_method(
          "frag.quad_derivative_coarse", Stage::Fragment, false, "coarse",
          "as frag.quad_derivative with coarse derivatives: wrong by design (the paper's tables 3, 4)",
          always),
      quad_method("comp.quad_subgroup", Stage::Compute, true, "subgroup",
                  "(r+1)^2 fetches, partial sums exchanged by subgroup quad swaps, 8x8 workgroups", subgroup),
      quad_method(
          "comp.quad_derivative", Stage::Compute, true, "derivative",
          "(r+1)^2 fetches, partial sums exchanged through compute-shader derivatives, 8x8 workgroups",
          support_compute_derivatives),
  };
}

}  // namespace filterlab::filters::gaussian
