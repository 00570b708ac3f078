#include "filters/copy/copy.h"

#include "filters/copy/copy_config.h"
#include "filters/precision.h"
#include "passes/simple_pass.h"
#include "vk/specialization.h"

#include <cmath>

namespace filterlab::filters::copy {
namespace {

// frag.fetch: the same copy as a fragment pass (copy.frag).
class FragmentCopy : public Filter {
 public:
  explicit FragmentCopy(const FilterEnv& env) : env_(env.pass_env), format_(precision_format(env.params)) {}

  std::string add_to(graph::RenderGraph& graph, const FilterInputs& inputs,
                     const std::string& name) override {
    graph.declare_image(name, {format_, graph::SizeRule::relative_to(inputs.color)});
    passes::SimplePass(env_, name, passes::FragmentShader{"filters/copy/copy.frag", format_})
        .sample(BINDING_SOURCE, inputs.color)
        .color(name)
        .add_to(graph);
    return name;
  }

 private:
  passes::PassEnv env_;
  VkFormat format_;
};

class Copy : public Filter {
 public:
  Copy(const FilterEnv& env, uint32_t pixels_per_thread, bool two_images)
      : env_(env.pass_env),
        format_(precision_format(env.params)),
        pixels_(pixels_per_thread),
        two_images_(two_images) {}

  std::string add_to(graph::RenderGraph& graph, const FilterInputs& inputs,
                     const std::string& name) override {
    graph.declare_image(name, {format_, graph::SizeRule::relative_to(inputs.color)});
    passes::SimplePass pass(
        env_, name,
        passes::ComputeShader{std::string("filters/copy/copy.comp#") + (two_images_ ? "two_images." : "") +
                                  precision_variant(format_),
                              vk::Specialization().set(COPY_PIXELS_ID, pixels_).words()});
    pass.sample(BINDING_SOURCE, inputs.color).store(BINDING_DESTINATION, name);
    if (two_images_) {
      graph.declare_image(name + ".second", {format_, graph::SizeRule::relative_to(inputs.color)});
      pass.store(BINDING_COPY_SECOND, name + ".second");
    }
    pass.dispatch_over(name, COPY_GROUP_X, COPY_GROUP_Y * pixels_).add_to(graph);
    return name;
  }

 private:
  passes::PassEnv env_;
  VkFormat format_;
  uint32_t pixels_;
  bool two_images_;
};

Method copy_method(const char* name, uint32_t pixels, const char* description, bool two_images = false) {
  Method m;
  m.name = name;
  m.stage = Stage::Compute;
  m.description = description;
  m.cost = [](const ParamValues&) { return MethodCost{1, 0, 0}; };
  m.create = [pixels, two_images](const FilterEnv& env) -> std::unique_ptr<Filter> {
    return std::make_unique<Copy>(env, pixels, two_images);
  };
  return m;
}

Family make_family() {
  Family f;
  f.name = "copy";
  f.description =
      "a plain copy: one fetch and one store per pixel, the memory floor every filter pass is measured "
      "against";
  f.params = {precision_param()};
  f.methods = {
      copy_method("comp.fetch", 1, "texelFetch and imageStore, one pixel a thread, 16x16 threads"),
      copy_method("comp.fetch_x2", 2, "the same, two pixels a thread, 16 rows apart (more loads in flight)"),
      copy_method("comp.fetch_x4", 4, "the same, four pixels a thread, 16 rows apart"),
      copy_method("comp.fetch_x4_two_images", 4,
                  "comp.fetch_x4 storing each pixel to two images: the yardstick of a step that writes two "
                  "(variance), never the floor",
                  true),
  };
  // In a fragment shader: what a fragment pass costs beside the compute copies (bench times every
  // copy; the report reads from the two whether this device shades fragments on few units).
  Method fragment =
      copy_method("frag.fetch", 1, "texelFetch in a fragment shader over a full-screen triangle");
  fragment.stage = Stage::Fragment;
  fragment.create = [](const FilterEnv& env) -> std::unique_ptr<Filter> {
    return std::make_unique<FragmentCopy>(env);
  };
  f.methods.push_back(fragment);
  // The fastest of the copies on the H100 at 4K, in both precisions (the bench floor's pick in
  // bench/results/h100-2026-11-27-auto-fxaa-tonemap/).
  f.default_method = "comp.fetch_x2";
  f.reference = [](const io::ImageF& input, const ParamValues&) {
    return common::reference_blur(input, {1.0});
  };
  f.test_points = {""};
  f.tolerance_fp32 = 0;  // exact: the values pass through
  f.tolerance_fp16 = 0;  // the inputs hold half values already: passed through
  f.tools.bench.memory_floor = true;
  return f;
}

}  // namespace

const Family& family() {
  static const Family f = make_family();
  return f;
}

}  // namespace filterlab::filters::copy
