// Quad-exchange blurs (Zubatov & Shcherbakov, section 3.1): each invocation of a 2x2 quad reads
// (r+1)^2 texels and its quad neighbours hand it the partial sums of the rest, through fine
// derivatives in a fragment shader (frag.quad_derivative), coarse ones (frag.quad_derivative_coarse,
// not exact: the paper's tables 3 and 4), subgroup quad swaps in a compute shader
// (comp.quad_subgroup) or derivatives in a compute shader (comp.quad_derivative). One shader
// source for all four: shaders/filters/blur/quad_common.glsl.
#include "filters/blur_methods.h"
#include "graph/executor.h"

#include <algorithm>
#include <bit>

namespace filterlab::filters {
namespace {

constexpr uint32_t kTile = 8;  // compute workgroup: kTile x kTile pixels (quad_common.glsl)

// Constant 0 is the radius, 1 + k is w(k) = w(-k) for k in 0..kMaxRadius (0 past the radius):
// the shaders take the kernel as constants, not from the weights buffer, because llvmpipe reads
// storage buffers as 0 in helper invocations (see quad_common.glsl). Same floats as that buffer.
std::vector<uint32_t> specialization(const BlurSettings& settings) {
  const int r = settings.kernel.radius;
  const std::vector<double> weights = common::kernel_weights(settings.kernel);
  std::vector<uint32_t> words(2 + common::kMaxRadius, 0);
  words[0] = static_cast<uint32_t>(r);
  for (int k = 0; k <= r; ++k) words[1 + k] = std::bit_cast<uint32_t>(static_cast<float>(weights[r + k]));
  return words;
}

class FragmentQuadBlur : public BlurPasses {
 public:
  FragmentQuadBlur(const BlurEnv& env, const std::string& shader) : settings_(env.settings) {
    vk::GraphicsPipelineDesc desc;
    desc.vertex_shader = "filters/fullscreen.vert";
    desc.fragment_shader = "filters/blur/" + shader;
    desc.layout.bindings = {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER};
    desc.color_formats = {settings_.format()};
    desc.specialization = specialization(settings_);
    pipeline_ = vk::make_pipeline(env.pass_env.pipelines, env.pass_env.vk, env.pass_env.shaders, desc);
  }

  std::string add_to(graph::RenderGraph& graph, const std::string& input, const std::string& name) override {
    graph.declare_image(name, {settings_.format(), graph::SizeRule::relative_to(input)});
    graph.add_pass(name, graph::PassKind::Graphics)
        .read(input, graph::Usage::SampledFragment)
        .color_overwrite(name)
        .execute([this, input](graph::PassContext& ctx) {
          ctx.bind(*pipeline_).sampled(0, input, graph::Sampling::Nearest).draw(3);
        });
    return name;
  }

 private:
  const BlurSettings& settings_;
  vk::PipelineRef pipeline_;
};

class ComputeQuadBlur : public BlurPasses {
 public:
  // shader: file name without the _fp16.comp / _fp32.comp that picks the storage format.
  ComputeQuadBlur(const BlurEnv& env, const std::string& shader) : settings_(env.settings) {
    const char* suffix = settings_.precision == Precision::Fp32 ? "_fp32.comp" : "_fp16.comp";
    vk::ComputePipelineDesc desc;
    desc.shader = "filters/blur/" + shader + suffix;
    desc.layout.bindings = {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE};
    desc.specialization = specialization(settings_);
    pipeline_ = vk::make_pipeline(env.pass_env.pipelines, env.pass_env.vk, env.pass_env.shaders, desc);
  }

  std::string add_to(graph::RenderGraph& graph, const std::string& input, const std::string& name) override {
    graph.declare_image(name, {settings_.format(), graph::SizeRule::relative_to(input)});
    graph.add_pass(name, graph::PassKind::Compute)
        .read(input, graph::Usage::SampledCompute)
        .write(name, graph::Usage::StorageWriteCompute)
        .execute([this, input, name](graph::PassContext& ctx) {
          ctx.bind(*pipeline_)
              .sampled(0, input, graph::Sampling::Nearest)
              .storage(1, name)
              .dispatch_over(name, kTile, kTile);
        });
    return name;
  }

 private:
  const BlurSettings& settings_;
  vk::PipelineRef pipeline_;
};

// Every pixel reads the (r+1)^2 texels at offsets T x T, T = {-r, -r+2, ..., r}; the three
// quad exchanges are neither fetches nor shared memory.
MethodCost cost_quad(int r) {
  return {double(r + 1) * double(r + 1)};
}

bool contains(const std::vector<std::string>& list, const char* item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

// quad_pixel() assumes full subgroups tiling a 64-invocation workgroup.
MethodSupport support_quad_subgroup(const vk::Context& device, const BlurSettings&) {
  return subgroup_quads_in_compute(device, kTile * kTile);
}

MethodSupport support_quad_compute_derivatives(const vk::Context& device, const BlurSettings&) {
  const vk::DeviceReport& r = device.report();
  if (!r.compute_shader_derivatives)
    return {
        "device lacks VK_KHR_compute_shader_derivatives (and VK_NV_compute_shader_derivatives) with quad "
        "groups"};
  if (!r.compute_derivatives_enabled)
    return {"not enabled: " + r.compute_derivatives_extension +
            " is there but the context was created without ContextOptions::compute_derivatives"};
  return {};
}

}  // namespace

MethodSupport subgroup_quads_in_compute(const vk::Context& device, uint32_t threads) {
  const vk::DeviceReport& r = device.report();
  if (!contains(r.subgroup_operations, "quad")) return {"device lacks subgroup quad operations"};
  if (!contains(r.subgroup_stages, "compute"))
    return {"device has no subgroup operations in compute shaders"};
  if (r.subgroup_size < 4 || r.subgroup_size > threads)
    return {"subgroup size " + std::to_string(r.subgroup_size) + " does not tile a " +
            std::to_string(threads) + "-invocation workgroup in quads"};
  return {};
}

std::vector<BlurMethod> quad_blur_methods() {
  return {
      {"frag.quad_derivative", "fragment", true, 1,
       "(r+1)^2 fetches, partial sums exchanged in the 2x2 quad through fine derivatives", cost_quad,
       always_supported,
       [](const BlurEnv& e) -> std::unique_ptr<BlurPasses> {
         return std::make_unique<FragmentQuadBlur>(e, "frag_quad_derivative.frag");
       }},
      {"frag.quad_derivative_coarse", "fragment", false, 1,
       "as frag.quad_derivative with coarse derivatives: wrong by design (the paper's tables 3, 4)",
       cost_quad, always_supported,
       [](const BlurEnv& e) -> std::unique_ptr<BlurPasses> {
         return std::make_unique<FragmentQuadBlur>(e, "frag_quad_derivative_coarse.frag");
       }},
      {"comp.quad_subgroup", "compute", true, 1,
       "(r+1)^2 fetches, partial sums exchanged by subgroup quad swaps, 8x8 workgroups", cost_quad,
       support_quad_subgroup,
       [](const BlurEnv& e) -> std::unique_ptr<BlurPasses> {
         return std::make_unique<ComputeQuadBlur>(e, "comp_quad_subgroup");
       }},
      {"comp.quad_derivative", "compute", true, 1,
       "(r+1)^2 fetches, partial sums exchanged through compute-shader derivatives, 8x8 workgroups",
       cost_quad, support_quad_compute_derivatives,
       [](const BlurEnv& e) -> std::unique_ptr<BlurPasses> {
         return std::make_unique<ComputeQuadBlur>(e, "comp_quad_derivative");
       }},
  };
}

}  // namespace filterlab::filters
