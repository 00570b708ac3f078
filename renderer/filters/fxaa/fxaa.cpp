#include "filters/fxaa/fxaa.h"

#include "filters/fxaa/fxaa_config.h"
#include "filters/fxaa/reference.h"
#include "filters/precision.h"
#include "passes/simple_pass.h"
#include "vk/specialization.h"

#include <cmath>

namespace filterlab::filters::fxaa {
namespace {

// As the shader has them (specialization constants are float).
Settings settings(const ParamValues& v) {
  return {float(v.number("subpix")), float(v.number("edge_threshold")),
          float(v.number("edge_threshold_min"))};
}

std::vector<uint32_t> constants(const ParamValues& v) {
  const Settings s = settings(v);
  return vk::Specialization()
      .set(FXAA_SUBPIX_ID, float(s.subpix))
      .set(FXAA_EDGE_THRESHOLD_ID, float(s.edge_threshold))
      .set(FXAA_EDGE_THRESHOLD_MIN_ID, float(s.edge_threshold_min))
      .words();
}

class Fxaa : public Filter {
 public:
  Fxaa(const FilterEnv& env, Stage stage)
      : env_(env.pass_env),
        stage_(stage),
        format_(precision_format(env.params)),
        spec_(constants(env.params)) {}

  std::string add_to(graph::RenderGraph& graph, const FilterInputs& inputs,
                     const std::string& name) override {
    graph.declare_image(name, {format_, graph::SizeRule::relative_to(inputs.color)});
    if (stage_ == Stage::Fragment) {
      passes::SimplePass(env_, name, passes::FragmentShader{"filters/fxaa/fxaa.frag", format_, spec_})
          .sample(BINDING_SOURCE, inputs.color)
          .color(name)
          .add_to(graph);
    } else {
      passes::SimplePass(
          env_, name,
          passes::ComputeShader{std::string("filters/fxaa/fxaa.comp#") + precision_variant(format_), spec_})
          .sample(BINDING_SOURCE, inputs.color)
          .store(BINDING_DESTINATION, name)
          .dispatch_over(name, FXAA_GROUP, FXAA_GROUP)
          .add_to(graph);
    }
    return name;
  }

 private:
  passes::PassEnv env_;
  Stage stage_;
  VkFormat format_;
  std::vector<uint32_t> spec_;
};

Method method(const char* name, Stage stage, const char* description) {
  Method m;
  m.name = name;
  m.stage = stage;
  m.description = description;
  // The 3x3 neighbourhood and the blend's second texel; the search's two texels a step, each way,
  // stop at the first step on most pixels and at all FXAA_STEP_COUNT on long edges, and not at all
  // where the contrast is low.
  m.cost = [](const ParamValues&) { return MethodCost{9 + 1 + 2 * 2 * 2, 0, 0}; };
  m.create = [stage](const FilterEnv& env) -> std::unique_ptr<Filter> {
    return std::make_unique<Fxaa>(env, stage);
  };
  return m;
}

Family make_family() {
  Family f;
  f.name = "fxaa";
  f.description =
      "FXAA 3.11 quality (Lottes): edges found from the 3x3 luma, searched along to their ends, the "
      "pixel blended across them; every decision reads sqrt(L/(1+L)) of the Rec. 709 luminance L in 256 "
      "levels (a tonemapped estimate of the display's luma), the blend mixes the linear HDR colours; "
      "clamp-to-edge border";
  f.params = {number_param("subpix", 0, 1, "0.75",
                           "sub-pixel aliasing removal: 0 off, 0.75 Lottes' default, 1 softest"),
              number_param("edge_threshold", 0.063, 0.333, "0.166",
                           "an edge's least contrast, relative to the brightest luma around it"),
              number_param("edge_threshold_min", 0, 0.0833, "0.0833",
                           "an edge's least contrast in luma, whatever the brightness: spares dark noise"),
              precision_param()};
  f.methods = {
      method("comp.fxaa", Stage::Compute, "compute: one pixel a thread, 16x16 threads, texelFetch only"),
      method("frag.fxaa", Stage::Fragment, "fragment: the same function over a full-screen triangle"),
  };
  f.reference = [](const io::ImageF& input, const ParamValues& v) {
    return reference(input, settings(v)).image;
  };
  f.decisions = Decisions{
      [](const io::ImageF& input, const ParamValues& v) { return reference(input, settings(v)).margins; },
      kLumaEpsilon,
      // A luma lies that close to a level's half with probability 2e-6 x 256 = 5e-4, and a pixel reads
      // nine or more; where it changes the pixel, the pixel is left out. Measured: at most 0.5% of a
      // random image, 1.3% of the scene (its sky repeats a few colours close to a half): 2%.
      0.02};
  f.test_points = {"", "subpix=0", "subpix=1:edge_threshold=0.063:edge_threshold_min=0",
                   "edge_threshold=0.333:edge_threshold_min=0.05"};
  // Off the decisions, the output is a + t (b - a) with t a smooth function of the lumas (exact but
  // for the low-pass's division by 12 and the sub-pixel term's by the contrast, which magnifies its
  // rounding by at most 1 / 0.063): measured at most 2.5e-6 on random images in [0, 1).
  f.tolerance_fp32 = 1e-5;
  f.tolerance_fp16 = 1e-5 + 2 * std::ldexp(1.0, -11);  // and the output rounded to half: 2 half-ulps at 1
  f.tools.bench.on_scene = true;  // its cost follows the content's edges: random images measure noise
  f.tools.evaluation_baseline = EvaluationBaseline{"taa", "FXAA (spatial baseline, defaults)"};
  return f;
}

}  // namespace

const Family& family() {
  static const Family f = make_family();
  return f;
}

}  // namespace filterlab::filters::fxaa
