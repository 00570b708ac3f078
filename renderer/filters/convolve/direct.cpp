// convolve's direct methods: direct.full2d (every tap, the input staged in shared memory) and
// direct.separable (the kernel's separable terms, two passes each).
#include "filters/convolve/convolve_config.h"
#include "filters/convolve/decompose.h"
#include "filters/convolve/kernel.h"
#include "filters/convolve/methods.h"
#include "filters/precision.h"
#include "passes/simple_pass.h"
#include "vk/specialization.h"

#include <algorithm>

namespace filterlab::filters::convolve {
namespace {

vk::Specialization kernel_size(const Kernel& k) {
  return vk::Specialization().set(CONVOLVE_KERNEL_WIDTH_ID, k.width).set(CONVOLVE_KERNEL_HEIGHT_ID, k.height);
}

class Full2D : public Filter {
 public:
  explicit Full2D(const FilterEnv& env)
      : env_(env.pass_env), format_(precision_format(env.params)), kernel_(make_kernel(env.params)) {
    std::vector<float> words;
    for (int b = 0; b < kernel_.height; ++b)
      for (int a = 0; a < kernel_.width; ++a)
        for (int c = 0; c < 4; ++c) words.push_back(float(kernel_.at(kernel_.plane_of(c), a, b)));
    weights_ = vk::Buffer::holding(env_.vk, words, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, "convolve kernel");
  }

  std::string add_to(graph::RenderGraph& graph, const FilterInputs& inputs,
                     const std::string& name) override {
    graph.declare_image(name, {format_, graph::SizeRule::relative_to(inputs.color)});
    // Kernels a chunk wide or more take the variant that unrolls whole chunks.
    const std::string variant =
        std::string(kernel_.width >= CONVOLVE_FULL2D_COLS ? "wide." : "") + precision_variant(format_);
    passes::SimplePass(
        env_, name,
        passes::ComputeShader{"filters/convolve/full2d.comp#" + variant, kernel_size(kernel_).words()})
        .sample(BINDING_SOURCE, inputs.color)
        .store(BINDING_DESTINATION, name)
        .storage_buffer(BINDING_FAMILY_DATA, weights_)
        .dispatch_over(name, CONVOLVE_GROUP * CONVOLVE_FULL2D_OUTPUTS, CONVOLVE_GROUP)
        .add_to(graph);
    return name;
  }

 private:
  passes::PassEnv env_;
  VkFormat format_;
  Kernel kernel_;
  vk::Buffer weights_;
};

class Separable : public Filter {
 public:
  explicit Separable(const FilterEnv& env)
      : env_(env.pass_env), format_(precision_format(env.params)), kernel_(make_kernel(env.params)) {
    const SeparableTerms terms = separable_terms(kernel_, rank_error(env.params), CONVOLVE_MAX_RANK);
    terms_ = std::max(terms.terms, 1);
    std::vector<float> words(size_t(terms_) * 2 * CONVOLVE_MAX_KERNEL * 4, 0.0f);
    for (int t = 0; t < terms.terms; ++t)
      for (int c = 0; c < 4; ++c) {
        const size_t term = size_t(t) * kernel_.planes + kernel_.plane_of(c);
        for (int a = 0; a < kernel_.width; ++a)
          words[((size_t(2 * t) * CONVOLVE_MAX_KERNEL) + a) * 4 + c] = float(terms.rows[term][a]);
        for (int b = 0; b < kernel_.height; ++b)
          words[((size_t(2 * t + 1) * CONVOLVE_MAX_KERNEL) + b) * 4 + c] = float(terms.columns[term][b]);
      }
    weights_ =
        vk::Buffer::holding(env_.vk, words, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, "convolve separable terms");
  }

  std::string add_to(graph::RenderGraph& graph, const FilterInputs& inputs,
                     const std::string& name) override {
    // Term t: `name.rows<t>` along x, then the columns pass into `name.sum<t>` (fp32), the last
    // into `name`.
    std::string previous = inputs.color;
    for (int t = 0; t < terms_; ++t) {
      const std::string rows = name + ".rows" + std::to_string(t);
      const bool last = t + 1 == terms_;
      const std::string sum = last ? name : name + ".sum" + std::to_string(t);
      graph.declare_image(rows, {VK_FORMAT_R32G32B32A32_SFLOAT, graph::SizeRule::relative_to(inputs.color)});
      graph.declare_image(
          sum, {last ? format_ : VK_FORMAT_R32G32B32A32_SFLOAT, graph::SizeRule::relative_to(inputs.color)});
      pass(graph, rows, inputs.color, "", false, "rows", t);
      // The first term adds nothing, but its binding needs an image: the input will do.
      pass(graph, sum, rows, previous, t > 0,
           last ? std::string("columns.") + precision_variant(format_) : "columns.fp32", t);
      previous = sum;
    }
    return name;
  }

 private:
  // `sum`: the previous terms' sum (the columns passes), added where `accumulate`.
  void pass(graph::RenderGraph& graph, const std::string& to, const std::string& from, const std::string& sum,
            bool accumulate, const std::string& variant, int term) {
    const std::vector<uint32_t> spec = kernel_size(kernel_).set(CONVOLVE_ACCUMULATE_ID, accumulate).words();
    passes::SimplePass p(env_, to, passes::ComputeShader{"filters/convolve/separable.comp#" + variant, spec});
    p.sample(BINDING_SOURCE, from, graph::Sampling::Nearest);
    if (!sum.empty()) p.sample(BINDING_CONVOLVE_SUM, sum, graph::Sampling::Nearest);
    p.store(BINDING_DESTINATION, to)
        .storage_buffer(BINDING_FAMILY_DATA, weights_)
        .constants(shader::SeparablePush{uint32_t(term)})
        .dispatch_over(to, CONVOLVE_GROUP, CONVOLVE_GROUP)
        .add_to(graph);
  }

  passes::PassEnv env_;
  VkFormat format_;
  Kernel kernel_;
  int terms_ = 1;
  vk::Buffer weights_;
};

}  // namespace

double rank_error(const ParamValues& params) {
  return params.number("rank_error");
}

std::vector<Method> direct_methods() {
  Method full;
  full.name = "direct.full2d";
  full.description =
      "every tap of the kernel, four outputs a thread, the input staged in shared memory chunk by chunk: the "
      "baseline the FFT replaces";
  full.cost = [](const ParamValues& v) {
    const Kernel k = make_kernel(v);
    return MethodCost{0, double(k.width) * k.height, 0};
  };
  full.support = [](const vk::Context& ctx, const ParamValues&) {
    Support s;
    // full2d.comp's shared memory: the staged tile, its columns padded by a quarter, vec4s.
    const uint32_t tile_w = CONVOLVE_GROUP * CONVOLVE_FULL2D_OUTPUTS + CONVOLVE_FULL2D_COLS - 1;
    const uint32_t tile = (CONVOLVE_GROUP + CONVOLVE_FULL2D_ROWS - 1) * (tile_w + tile_w / 4 + 1) * 16;
    if (ctx.report().max_compute_shared_memory < tile)
      s.reason = "needs " + std::to_string(tile) + " bytes of shared memory";
    return s;
  };
  full.create = [](const FilterEnv& env) -> std::unique_ptr<Filter> { return std::make_unique<Full2D>(env); };

  Method separable;
  separable.name = "direct.separable";
  separable.passes = 2;
  separable.description =
      "the kernel as a sum of separable terms from its SVD, the fewest whose residual's L1 norm is at most "
      "rank_error, two passes a term";
  separable.cost = [](const ParamValues& v) {
    const Kernel k = make_kernel(v);
    const int terms = std::max(1, separable_terms(k, rank_error(v), CONVOLVE_MAX_RANK).terms);
    return MethodCost{double(terms) * (k.width + k.height + 1), 0, 0};
  };
  separable.support = [](const vk::Context&, const ParamValues& v) {
    Support s;
    const SeparableTerms terms = separable_terms(make_kernel(v), rank_error(v), CONVOLVE_MAX_RANK);
    if (terms.needed > CONVOLVE_MAX_RANK)
      s.reason = "the kernel needs " + std::to_string(terms.needed) +
                 " separable terms for rank_error=" + std::to_string(rank_error(v)) + "; at most " +
                 std::to_string(CONVOLVE_MAX_RANK) + " are run";
    return s;
  };
  separable.create = [](const FilterEnv& env) -> std::unique_ptr<Filter> {
    return std::make_unique<Separable>(env);
  };
  return {full, separable};
}

}  // namespace filterlab::filters::convolve
