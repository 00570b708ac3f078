#include "filters/variance/running.h"

#include "filters/device_checks.h"
#include "filters/precision.h"
#include "filters/variance/variance_config.h"
#include "filters/window_methods.h"
#include "passes/simple_pass.h"
#include "vk/specialization.h"

namespace filterlab::filters::variance {
namespace {

uint32_t threads(int r) {
  return running_threads(VARIANCE_RUNNING_COLS, r);
}
static_assert(running_threads(VARIANCE_RUNNING_COLS, VARIANCE_RUNNING_MAX_RADIUS) <=
              WINDOW_RUNNING_MAX_THREADS);

class Running : public Filter {
 public:
  explicit Running(const FilterEnv& env)
      : env_(env.pass_env),
        format_(precision_format(env.params)),
        radius_(env.params.integer("radius")),
        space_(env.params.choice("space") == "ycocg" ? WINDOW_SPACE_YCOCG : WINDOW_SPACE_RGB),
        output_(env.params.choice("output")) {}

  std::string add_to(graph::RenderGraph& graph, const FilterInputs& inputs,
                     const std::string& name) override {
    for (const char* suffix : {".mean", ".stddev"})
      graph.declare_image(name + suffix, {format_, graph::SizeRule::relative_to(inputs.color)});
    const std::vector<uint32_t> spec = vk::Specialization()
                                           .set(WINDOW_RADIUS_ID, radius_)
                                           .set(WINDOW_SPACE_ID, space_)
                                           .set(VARIANCE_RUNNING_THREADS_ID, threads(radius_))
                                           .set(VARIANCE_RUNNING_ROWS_ID, running_rows(radius_))
                                           .words();
    passes::SimplePass(
        env_, name,
        passes::ComputeShader{
            std::string("filters/variance/variance_running.comp#") + precision_variant(format_), spec})
        .sample(BINDING_SOURCE, inputs.color)
        .store(BINDING_DESTINATION, name + ".mean")
        .store(BINDING_DESTINATION_2, name + ".stddev")
        .dispatch_over(name + ".mean", VARIANCE_RUNNING_COLS, uint32_t(running_rows(radius_)))
        .add_to(graph);
    graph.alias_image(name, name + "." + output_);  // the one that continues the chain
    return name;
  }

 private:
  passes::PassEnv env_;
  VkFormat format_;
  int radius_;
  int space_;
  std::string output_;  // mean or stddev: the image that continues the chain
};

}  // namespace

Method running_method() {
  Method m;
  m.name = "comp.running";
  m.stage = Stage::Compute;
  m.description =
      "mean and stddev of a square window as box sums sliding down strips 128 wide and prefix sums along "
      "each row, in double (flat windows cancel in fp32): the same work at every radius";
  m.cost = [](const ParamValues& v) {
    const double r = v.integer("radius"), cols = VARIANCE_RUNNING_COLS;
    const double span = (cols + 2 * r) / cols;
    // Per output: the slide's two fetches and the first row's share, a column each; the prefix's
    // write a column and the window's two reads, of the sum and of the squares.
    return MethodCost{span * (2 + (2 * r + 1) / running_rows(int(r))), 2 * 2.0, 2 * span};
  };
  m.support = [](const vk::Context& device, const ParamValues& v) -> Support {
    const std::string& out = v.choice("output");
    if (out != "mean" && out != "stddev")
      return {"computes the mean and stddev only (sums slide; min and max do not)"};
    if (v.choice("shape") != "square") return {"slides square windows only"};
    // Its sums are doubles (variance_running.comp: in fp32 flat windows cancel).
    if (!device.report().shader_float64) return {"needs shaderFloat64 (its sums are doubles)"};
    // group_prefix.glsl keeps a total for each subgroup, WINDOW_RUNNING_MAX_SUBGROUPS at most.
    const Support scans =
        subgroup_arithmetic_in_compute(device, threads(VARIANCE_RUNNING_MAX_RADIUS),
                                       WINDOW_RUNNING_MAX_THREADS / WINDOW_RUNNING_MAX_SUBGROUPS);
    if (!scans.available()) return scans;
    return {{}, VARIANCE_RUNNING_MAX_RADIUS};
  };
  m.create = [](const FilterEnv& env) -> std::unique_ptr<Filter> { return std::make_unique<Running>(env); };
  return m;
}

}  // namespace filterlab::filters::variance
