// Fragment-shader blurs of the Gaussian's own: the separable and bilinear baselines the
// quad-derivative paper compares against (frag.full2d comes from the window drivers). A
// full-screen triangle per pass; the radius is specialization constant 0 so loops unroll.
#include "filters/gaussian/gaussian_config.h"
#include "filters/gaussian/methods.h"
#include "filters/precision.h"
#include "passes/simple_pass.h"

namespace filterlab::filters::gaussian {
namespace {

class FragmentBlur : public Filter {
 public:
  // shader: under shaders/filters/gaussian/; two_pass: horizontal then vertical (constant 1).
  FragmentBlur(const FilterEnv& env, const std::string& shader, bool exact, bool two_pass)
      : env_(env.pass_env),
        kernel_(env.pass_env.vk, kernel_spec(env.params)),
        format_(precision_format(env.params)),
        radius_(uint32_t(env.params.integer("radius"))),
        shader_("filters/gaussian/" + shader),
        sampling_(exact ? graph::Sampling::Nearest : graph::Sampling::Linear),
        two_pass_(two_pass) {}

  std::string add_to(graph::RenderGraph& graph, const FilterInputs& inputs,
                     const std::string& name) override {
    if (two_pass_) {
      add_pass(graph, inputs.color, name + ".horizontal", inputs.color, 0);
      add_pass(graph, inputs.color, name, name + ".horizontal", 1);
    } else {
      add_pass(graph, inputs.color, name, inputs.color, 0);
    }
    return name;
  }

 private:
  // Exact methods fetch texels; bilinear ones let the sampler blend pairs of weights.
  void add_pass(graph::RenderGraph& graph, const std::string& size_of, const std::string& pass,
                const std::string& from, uint32_t direction) {
    graph.declare_image(pass, {format_, graph::SizeRule::relative_to(size_of)});
    const vk::Specialization spec =
        vk::Specialization().set(GAUSSIAN_RADIUS_ID, radius_).set(GAUSSIAN_DIRECTION_ID, direction);
    passes::SimplePass(env_, pass, passes::FragmentShader{shader_, format_, spec.words()})
        .sample(BINDING_SOURCE, from, sampling_)
        .storage_buffer(BINDING_WEIGHTS, kernel_.weights)
        .storage_buffer(BINDING_TAPS, kernel_.taps)
        .color(pass)
        .add_to(graph);
  }

  passes::PassEnv env_;
  KernelBuffers kernel_;
  VkFormat format_;
  uint32_t radius_;
  std::string shader_;
  graph::Sampling sampling_;
  bool two_pass_;
};

Method fragment_method(const char* name, bool exact, bool two_pass, const char* shader,
                       const char* description, double (*fetches)(int)) {
  Method m;
  m.name = name;
  m.stage = Stage::Fragment;
  m.exact = exact;
  // The bound holds where the sampler blends in float, as lavapipe does (the reference test's
  // device): it catches a wrong tap offset or weight, which costs > 1e-2. GPUs that quantize the
  // sub-texel weights (commonly 8 bits) exceed it, by design of the method; their measured errors
  // are in docs/families/gaussian.md.
  if (!exact) m.bound_fp32 = 1e-4;
  m.passes = two_pass ? 2 : 1;
  m.description = description;
  m.cost = [fetches](const ParamValues& v) { return MethodCost{fetches(v.integer("radius"))}; };
  m.support = [](const vk::Context&, const ParamValues&) { return up_to_design_radius(); };
  m.create = [=](const FilterEnv& env) -> std::unique_ptr<Filter> {
    return std::make_unique<FragmentBlur>(env, shader, exact, two_pass);
  };
  return m;
}

}  // namespace

std::vector<Method> fragment_methods() {
  // Fetches per pixel (Chapman, "Separability" and "Bilinear Filtering"): 2r+1 a pass exact, r+1
  // bilinear ones a pass, (r+1)^2 bilinear ones in 2D.
  return {
      fragment_method("frag.separable", true, true, "frag_separable.frag",
                      "horizontal then vertical, 2r+1 fetches each", [](int r) { return 2.0 * (2 * r + 1); }),
      fragment_method("frag.separable_linear", false, true, "frag_separable_linear.frag",
                      "separable with bilinear fetches, r+1 per pass", [](int r) { return 2.0 * (r + 1); }),
      fragment_method("frag.full2d_linear", false, false, "frag_full2d_linear.frag",
                      "2D bilinear fetches, (r+1)^2 per pixel (Chapman)",
                      [](int r) { return (r + 1.0) * (r + 1); }),
  };
}

}  // namespace filterlab::filters::gaussian
