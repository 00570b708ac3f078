#include "filters/tent/running.h"

#include "filters/device_checks.h"
#include "filters/precision.h"
#include "filters/tent/tent.h"
#include "filters/tent/tent_config.h"
#include "filters/window_methods.h"
#include "passes/simple_pass.h"
#include "vk/specialization.h"

namespace filterlab::filters::tent {
namespace {

uint32_t threads(int r) {
  return running_threads(TENT_RUNNING_COLS, r);
}
static_assert(running_threads(TENT_RUNNING_COLS, TENT_RUNNING_MAX_RADIUS) <= WINDOW_RUNNING_MAX_THREADS);

class Running : public Filter {
 public:
  explicit Running(const FilterEnv& env)
      : env_(env.pass_env), format_(precision_format(env.params)), weights_(tent_weights(env.params)) {}

  std::string add_to(graph::RenderGraph& graph, const FilterInputs& inputs,
                     const std::string& name) override {
    graph.declare_image(name, {format_, graph::SizeRule::relative_to(inputs.color)});
    const int r = weights_.support;
    const std::vector<uint32_t> spec = vk::Specialization()
                                           .set(WINDOW_RADIUS_ID, r)
                                           .set(TENT_RANK2_ID, weights_.rank2)
                                           .set(TENT_A_ID, float(weights_.a))
                                           .set(TENT_B_ID, float(weights_.b))
                                           .set(TENT_RUNNING_THREADS_ID, threads(r))
                                           .set(TENT_RUNNING_ROWS_ID, running_rows(r))
                                           .words();
    passes::SimplePass(env_, name,
                       passes::ComputeShader{
                           std::string("filters/tent/tent_running.comp#") + precision_variant(format_), spec})
        .sample(BINDING_SOURCE, inputs.color)
        .store(BINDING_DESTINATION, name)
        .dispatch_over(name, TENT_RUNNING_COLS, uint32_t(running_rows(r)))
        .add_to(graph);
    return name;
  }

 private:
  passes::PassEnv env_;
  VkFormat format_;
  TentWeights weights_;
};

}  // namespace

Method running_method() {
  Method m;
  m.name = "comp.running";
  m.stage = Stage::Compute;
  m.description =
      "box and ramp sums sliding down strips 128 wide and prefix sums along each row: the same work at every "
      "radius";
  m.cost = [](const ParamValues& v) {
    const double r = v.integer("radius"), cols = TENT_RUNNING_COLS;
    const double span = (cols + 2 * r) / cols;
    // Per output: the walk's four fetches and the first row's share, a column each; three prefixes
    // written a column, and up to ten reads of them.
    return MethodCost{span * (4 + (2 * r + 1) / running_rows(int(r))), 10.0, 3 * span};
  };
  m.support = [](const vk::Context& device, const ParamValues&) -> Support {
    // group_prefix.glsl keeps a total for each subgroup, WINDOW_RUNNING_MAX_SUBGROUPS at most.
    const Support scans = subgroup_arithmetic_in_compute(
        device, threads(TENT_RUNNING_MAX_RADIUS), WINDOW_RUNNING_MAX_THREADS / WINDOW_RUNNING_MAX_SUBGROUPS);
    if (!scans.available()) return scans;
    return {{}, TENT_RUNNING_MAX_RADIUS};
  };
  m.create = [](const FilterEnv& env) -> std::unique_ptr<Filter> { return std::make_unique<Running>(env); };
  return m;
}

}  // namespace filterlab::filters::tent
