#include "filters/copy/copy.h"

#include "filters/copy/copy_config.h"
#include "filters/precision.h"
#include "passes/simple_pass.h"

#include <cmath>

namespace filterlab::filters::copy {
namespace {

class Copy : public Filter {
 public:
  Copy(const FilterEnv& env, uint32_t pixels_per_thread)
      : env_(env.pass_env), format_(precision_format(env.params)), pixels_(pixels_per_thread) {}

  std::string add_to(graph::RenderGraph& graph, const FilterInputs& inputs,
                     const std::string& name) override {
    graph.declare_image(name, {format_, graph::SizeRule::relative_to(inputs.color)});
    passes::SimplePass(
        env_, name,
        passes::ComputeShader{std::string("filters/copy/copy.comp#") + precision_variant(format_), {pixels_}})
        .sample(BINDING_SOURCE, inputs.color)
        .store(BINDING_DESTINATION, name)
        .dispatch_over(name, COPY_GROUP_X, COPY_GROUP_Y * pixels_)
        .add_to(graph);
    return name;
  }

 private:
  passes::PassEnv env_;
  VkFormat format_;
  uint32_t pixels_;
};

Method copy_method(const char* name, uint32_t pixels, const char* description) {
  Method m;
  m.name = name;
  m.stage = Stage::Compute;
  m.description = description;
  m.cost = [](const ParamValues&) { return MethodCost{1, 0, 0}; };
  m.create = [pixels](const FilterEnv& env) -> std::unique_ptr<Filter> {
    return std::make_unique<Copy>(env, pixels);
  };
  return m;
}

Family make_family() {
  Family f;
  f.name = "copy";
  f.description =
      "a plain compute copy: one fetch and one store per pixel, the memory floor every filter pass is "
      "measured "
      "against";
  f.params = {precision_param()};
  f.methods = {
      copy_method("comp.fetch", 1, "texelFetch and imageStore, one pixel a thread, 16x16 threads"),
      copy_method("comp.fetch_x2", 2, "the same, two pixels a thread, 16 rows apart (more loads in flight)"),
      copy_method("comp.fetch_x4", 4, "the same, four pixels a thread, 16 rows apart"),
  };
  f.default_method = "comp.fetch_x4";
  f.reference = [](const io::ImageF& input, const ParamValues&) {
    return common::reference_blur(input, {1.0});
  };
  f.test_points = {""};
  f.tolerance_fp32 = 0;  // exact: the values pass through
  f.tolerance_fp16 = 0;  // the inputs hold half values already: passed through
  f.memory_floor = true;
  return f;
}

}  // namespace

const Family& family() {
  static const Family f = make_family();
  return f;
}

}  // namespace filterlab::filters::copy
