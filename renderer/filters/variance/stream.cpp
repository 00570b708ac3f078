#include "filters/variance/stream.h"

#include "filters/device_checks.h"
#include "filters/precision.h"
#include "filters/variance/variance_config.h"
#include "passes/simple_pass.h"
#include "vk/specialization.h"

namespace filterlab::filters::variance {
namespace {

constexpr uint32_t kSumBytes = 2 * 16;  // a column's sum and sum of squares, vec4 each

uint32_t shared_bytes(int r) {
  return VARIANCE_STREAM_BATCH * (VARIANCE_STREAM_COLS + 2 * uint32_t(r)) * kSumBytes;
}

// A thread per input column of a strip: the strip and its apron fit the group.
constexpr int kMaxRadius = (VARIANCE_STREAM_THREADS - VARIANCE_STREAM_COLS) / 2;

class Stream : public Filter {
 public:
  explicit Stream(const FilterEnv& env)
      : env_(env.pass_env),
        format_(precision_format(env.params)),
        spec_(vk::Specialization()
                  .set(WINDOW_RADIUS_ID, env.params.integer("radius"))
                  .set(WINDOW_SPACE_ID,
                       env.params.choice("space") == "ycocg" ? WINDOW_SPACE_YCOCG : WINDOW_SPACE_RGB)
                  .words()),
        output_(env.params.choice("output")) {}

  std::string add_to(graph::RenderGraph& graph, const FilterInputs& inputs,
                     const std::string& name) override {
    for (const char* suffix : {".mean", ".stddev"})
      graph.declare_image(name + suffix, {format_, graph::SizeRule::relative_to(inputs.color)});
    passes::SimplePass(
        env_, name,
        passes::ComputeShader{
            std::string("filters/variance/variance_stream.comp#") + precision_variant(format_), spec_})
        .sample(BINDING_SOURCE, inputs.color)
        .store(BINDING_DESTINATION, name + ".mean")
        .store(BINDING_DESTINATION_2, name + ".stddev")
        .dispatch_over(name + ".mean", VARIANCE_STREAM_COLS, VARIANCE_STREAM_ROWS)
        .add_to(graph);
    graph.alias_image(name, name + "." + output_);  // the one that continues the chain
    return name;
  }

 private:
  passes::PassEnv env_;
  VkFormat format_;
  std::vector<uint32_t> spec_;
  std::string output_;  // mean or stddev: the image that continues the chain
};

}  // namespace

Method stream_method() {
  Method m;
  m.name = "comp.stream";
  m.stage = Stage::Compute;
  m.description =
      "mean and stddev of a square window as box sums sliding down strips 64 wide: vertical sums cost the "
      "same at every radius";
  m.cost = [](const ParamValues& v) {
    const double r = v.integer("radius"), rows = VARIANCE_STREAM_ROWS, cols = VARIANCE_STREAM_COLS;
    const double span = (cols + 2 * r) / cols;
    return MethodCost{2 * span * (rows + 2 * r) / rows, (2 * r + 1) * 2.0, 2 * span};
  };
  m.support = [](const vk::Context& device, const ParamValues& v) -> Support {
    const std::string& out = v.choice("output");
    if (out != "mean" && out != "stddev")
      return {"computes the mean and stddev only (sums slide; min and max do not)"};
    if (v.choice("shape") != "square") return {"slides square windows only"};
    const uint32_t shared = device.report().max_compute_shared_memory;
    int largest = 0;
    for (int r = 1; r <= kMaxRadius && shared_bytes(r) <= shared; ++r) largest = r;
    return shared_memory_support(device, largest, VARIANCE_STREAM_THREADS, shared_bytes(1));
  };
  m.create = [](const FilterEnv& env) -> std::unique_ptr<Filter> { return std::make_unique<Stream>(env); };
  return m;
}

}  // namespace filterlab::filters::variance
