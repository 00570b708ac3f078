#include "filters/taa/taa.h"

#include "filters/chain.h"
#include "filters/device_checks.h"
#include "filters/precision.h"
#include "filters/taa/taa_config.h"
#include "filters/window_methods.h"
#include "passes/camera_feed.h"
#include "passes/simple_pass.h"
#include "vk/specialization.h"

#include <bit>
#include <cmath>

namespace filterlab::filters::taa {
namespace {

int rectify_mode(const std::string& rectify) {
  if (rectify == "none") return TAA_NONE;
  if (rectify == "clamp") return TAA_CLAMP;
  if (rectify == "clip") return TAA_CLIP;
  return TAA_VARIANCE;
}

// The window's radius (3x3), the variance family's statistics, then the resolve's own.
std::vector<uint32_t> constants(const ParamValues& v) {
  vk::Specialization spec;
  spec.set(WINDOW_RADIUS_ID, 1)
      .set(WINDOW_STATS_ID, v.choice("rectify") == "variance" ? WINDOW_STATS_MOMENTS : WINDOW_STATS_RANGE)
      .set(WINDOW_SHAPE_ID, v.choice("shape") == "plus" ? WINDOW_SHAPE_PLUS : WINDOW_SHAPE_SQUARE)
      .set(WINDOW_SPACE_ID, v.choice("space") == "ycocg" ? WINDOW_SPACE_YCOCG : WINDOW_SPACE_RGB)
      .set(TAA_RECTIFY_ID, rectify_mode(v.choice("rectify")))
      .set(TAA_HISTORY_FILTER_ID, v.choice("history") == "catmull_rom"    ? TAA_CATMULL_ROM
                                  : v.choice("history") == "catmull_rom5" ? TAA_CATMULL_ROM5
                                                                          : TAA_BILINEAR)
      .set(TAA_GAMMA_ID, float(v.number("gamma")))
      .set(TAA_FEEDBACK_MIN_ID, float(v.number("feedback_min")))
      .set(TAA_FEEDBACK_MAX_ID, float(v.number("feedback_max")));
  return spec.words();
}

// `filterlab evaluate`'s configurations (issue #20's measurement): no AA, TAA with each
// rectification, variance clipping at gamma 0.75, 1 and 1.25 (the default method), with the
// history from 5 taps and bilinear, and variance clipping at gamma 1 by every other method the
// device runs.
std::vector<Evaluation::Config> evaluation_configs(const Family& f, const vk::Context& device) {
  std::vector<Evaluation::Config> out = {{"no AA", "", {}},
                                         {"TAA, no rectification", "taa:rectify=none", {}},
                                         {"TAA, min/max clamp", "taa:rectify=clamp", {}},
                                         {"TAA, min/max clip", "taa:rectify=clip", {}}};
  for (const char* gamma : {"0.75", "1", "1.25"})
    out.push_back({std::string("TAA, variance clip, gamma ") + gamma,
                   std::string("taa:rectify=variance:gamma=") + gamma, std::stod(gamma)});
  // The history's cheaper samplings (issue #35: what fewer taps cost in quality).
  out.push_back(
      {"TAA, variance clip, gamma 1, Catmull-Rom 5 taps", "taa:rectify=variance:history=catmull_rom5", {}});
  out.push_back(
      {"TAA, variance clip, gamma 1, bilinear history", "taa:rectify=variance:history=bilinear", {}});
  const Method& by_default = *f.find(f.default_method);
  const ParamValues defaults = parse_params(f, by_default, {});
  const Method* picked = by_default.runs ? by_default.runs(defaults, device) : &by_default;
  for (const Method& m : f.methods) {
    if (&m == &by_default || &m == picked) continue;  // the default's rows are above
    const ResolvedStep step{&f, &m, parse_params(f, m, {{"rectify", "variance"}}), ""};
    if (device_support(step, device).available())
      out.push_back({"TAA, variance clip, gamma 1, " + m.name, "taa." + m.name + ":rectify=variance", {}});
  }
  return out;
}

class Resolve : public Filter {
 public:
  Resolve(const FilterEnv& env, Stage stage, const std::string& variant)
      : env_(env.pass_env),
        stage_(stage),
        format_(precision_format(env.params)),
        spec_(constants(env.params)),
        views_(env.params.choice("views") == "on"),
        group_(variant == "shared" ? TAA_SHARED_GROUP : TAA_GROUP) {
    const std::string name = variant + (views_ ? ".views" : "");
    shader_ = stage == Stage::Fragment ? "filters/taa/taa.frag#" + name
                                       : "filters/taa/taa.comp#" + name + "." + precision_variant(format_);
  }

  std::string add_to(graph::RenderGraph& graph, const FilterInputs& inputs,
                     const std::string& name) override {
    graph.declare_image(name, {format_, graph::SizeRule::relative_to(inputs.color)});
    // views=on: name.history (the history as blended) and name.rejection (the mask), viewable and
    // capturable like any image.
    const std::string history_view = name + ".history", mask_view = name + ".rejection";
    if (views_)
      for (const std::string& view : {history_view, mask_view})
        graph.declare_image(view, {format_, graph::SizeRule::relative_to(inputs.color)});
    const passes::CameraFeed* camera = inputs.camera;
    auto declare = [&](passes::SimplePass& pass) {
      pass.sample(BINDING_SOURCE, inputs.color)
          .sample(BINDING_DEPTH, inputs.depth)
          .sample(BINDING_MOTION, inputs.motion)
          .sample_history(BINDING_HISTORY, name, graph::Sampling::Linear)
          .constants_from<shader::FilterCamera>(
              [camera](graph::PassContext&) { return passes::camera_constants(*camera); });
    };
    if (stage_ == Stage::Fragment) {
      passes::SimplePass pass(env_, name, passes::FragmentShader{shader_, format_, spec_});
      declare(pass);
      pass.color(name);
      if (views_) pass.color(history_view).color(mask_view);
      pass.add_to(graph);
    } else {
      passes::SimplePass pass(env_, name, passes::ComputeShader{shader_, spec_});
      declare(pass);
      pass.store(BINDING_DESTINATION, name);
      if (views_) pass.store(BINDING_TAA_HISTORY_VIEW, history_view).store(BINDING_TAA_MASK_VIEW, mask_view);
      pass.dispatch_over(name, group_, group_).add_to(graph);
    }
    return name;
  }

 private:
  passes::PassEnv env_;
  Stage stage_;
  VkFormat format_;
  std::vector<uint32_t> spec_;
  std::string shader_;
  bool views_;  // declared after shader_, initialized before the body that reads it
  uint32_t group_;
};

// A resolve that gathers the 3x3 statistics as `how` does (the drivers' table), described as the
// resolve does it.
Method method(const WindowMethodInfo& how, const char* description, WindowMethod which) {
  Method m;
  m.name = how.name;
  m.stage = how.stage;
  m.exact = how.exact;
  m.description = description;
  const std::string variant = how.variant;
  m.cost = [variant](const ParamValues&) {
    // The 3x3 statistics (9 fetches, 4 with the quad exchange, 18^2 / 16^2 from the shared tile), 9
    // depths (or the tile's), a motion, 9 history taps.
    if (variant == "shared") return MethodCost{2 * 324.0 / 256 + 1 + 9};
    return MethodCost{(variant == "full2d" ? 9.0 : 4.0) + 9 + 1 + 9};
  };
  m.support = [which](const vk::Context& ctx, const ParamValues&) {
    return quad_exchange_support(which, ctx);
  };
  const Stage stage = how.stage;
  m.create = [stage, variant](const FilterEnv& env) -> std::unique_ptr<Filter> {
    return std::make_unique<Resolve>(env, stage, variant);
  };
  return m;
}

Family make_family() {
  Family f;
  f.name = "taa";
  f.description =
      "temporal anti-aliasing: history reprojected by the closest pixel's motion, rectified against the "
      "neighbourhood's statistics (variance clipping by default), blended with luminance weights";
  f.params = {
      number_param("gamma", 0.25, 4, "1",
                   "variance clipping's box: mean +- gamma stddev (Salvi: 0.75..1.25)"),
      choice_param("shape", {"square", "plus"}, "square", "the 3x3 neighbourhood, or its plus-shaped middle"),
      choice_param(
          "rectify", {"none", "clamp", "clip", "variance"}, "variance",
          "the history against the neighbourhood: as it is, clamped to min/max, clipped toward the box's "
          "centre, or clipped to mean +- gamma stddev"),
      choice_param("space", {"rgb", "ycocg"}, "ycocg",
                   "the colour space the statistics and the rectification use"),
      choice_param(
          "history", {"catmull_rom", "catmull_rom5", "bilinear"}, "catmull_rom",
          "how the reprojected history is sampled: Catmull-Rom from 9 bilinear taps, from 5 (no corners), or "
          "bilinear"),
      number_param("feedback_min", 0, 1, "0.88",
                   "the history's weight where its luminance disagrees with the current colour's"),
      number_param("feedback_max", 0, 1, "0.97",
                   "the history's weight where they agree (mix(min, max, agreement^2))"),
      choice_param(
          "views", {"off", "on"}, "off",
          "also write <name>.history (the history as blended) and <name>.rejection (red: no history; "
          "green: how far the rectification moved it)"),
      precision_param()};
  f.inputs = {Input::Depth, Input::Motion, Input::Camera, Input::History, Input::Jitter};
  // The drivers' methods (filters/window_methods.h), and the fetch loop in compute, which the
  // window families leave out.
  using W = WindowMethod;
  f.methods = {
      method({"comp.full2d", Stage::Compute, true, "full2d", ""},
             "compute resolve, the statistics by the fetch loop", W::Full2d),
      method(window_method_info(W::Shared),
             "compute resolve, the 3x3 colour and depth staged in shared memory by the workgroup", W::Shared),
      method(window_method_info(W::QuadSubgroup),
             "compute resolve, the statistics passed round the quad by subgroup swaps", W::QuadSubgroup),
      method(window_method_info(W::QuadDerivative),
             "compute resolve, the statistics passed round the quad through compute-shader derivatives",
             W::QuadDerivative),
      method(window_method_info(W::Full2d), "fragment resolve, the statistics by the fetch loop", W::Full2d),
      method(window_method_info(W::QuadFine),
             "fragment resolve, the statistics through fine derivatives (what the paper built them for)",
             W::QuadFine),
      method(window_method_info(W::QuadCoarse),
             "fragment resolve, the statistics through coarse derivatives: wrong by design (figure 10)",
             W::QuadCoarse),
  };
  // On a still image, the first frame (no history): the current colour. The registry's reference
  // test does not run families that read the scene; tests/gpu/taa_test.cpp tests this one.
  f.reference = [](const io::ImageF& input, const ParamValues&) {
    common::ImageD out{input.width, input.height, input.channels, {}};
    out.pixels.assign(input.pixels.begin(), input.pixels.end());
    return out;
  };
  f.test_points = {""};
  f.tolerance_fp32 = 0;
  f.tolerance_fp16 = 0;
  f.tools.evaluation = Evaluation{"TAA", "gamma", evaluation_configs};
  return f;
}

}  // namespace

const Family& family() {
  static const Family f = make_family();
  return f;
}

}  // namespace filterlab::filters::taa
