#pragma once
// What a blur method implements. BlurFilter owns the kernel buffers every method reads (the
// same numbers the CPU reference uses) and hands them over in BlurEnv; a method builds its
// pipelines once and declares its passes into the graph each time the graph is built.
//
// Buffer layouts (std430, set 0):
//   weights: float[2r+1], weights[r + i] = w(i) for i in [-r, r]; the 2D kernel is w(i) w(j).
//            Zero-padded to kWeightBufferFloats and also usable as a uniform block of vec4s.
//            Then, at kWeightBufferFloats, uint[2r+1]: w(i) rounded to half, in both 16-bit halves.
//   taps:    vec2[r+1], (offset from the centre in texels, weight) of Chapman's bilinear taps.
#include "filters/blur_filter.h"
#include "passes/pass_env.h"

#include <utility>

namespace filterlab::filters {

constexpr int kWeightBufferFloats = (2 * common::kMaxRadius + 1 + 3) / 4 * 4;  // 17 vec4s

struct BlurEnv {
  const passes::PassEnv& pass_env;
  const BlurSettings& settings;
  const vk::Buffer& weights;
  const vk::Buffer& taps;
};

class BlurPasses {
 public:
  virtual ~BlurPasses() = default;
  // Declares the method's images and passes reading `input`; returns the image holding the result.
  // The result image is named `name`; intermediates are named `name.<something>`.
  virtual std::string add_to(graph::RenderGraph& graph, const std::string& input,
                             const std::string& name) = 0;
};

// One list per family file.
// blur_fragment.cpp: frag.full2d, frag.separable and their linear-sampling versions.
std::vector<BlurMethod> fragment_blur_methods();
// blur_compute.cpp: comp.full2d_shared, comp.separable_shared, comp.separable_fused, comp.separable_stream,
// comp.separable_stream_half.
std::vector<BlurMethod> compute_blur_methods();
// blur_tiled.cpp: comp.tiled.
std::vector<BlurMethod> tiled_blur_methods();
// blur_quad.cpp: frag.quad_derivative*, comp.quad_*.
std::vector<BlurMethod> quad_blur_methods();

// Support for methods that need nothing beyond the core device.
MethodSupport always_supported(const vk::Context& device, const BlurSettings& settings);

// For compute shaders that number their threads by subgroup position and swap values within quads
// (blur_quad.cpp): unavailable unless the device has quad operations in compute shaders and full
// subgroups of 4 to `threads` invocations tile a group of `threads`.
MethodSupport subgroup_quads_in_compute(const vk::Context& device, uint32_t threads);

// comp.separable_stream's dispatch for an image of `extent`: {strips across, groups down each strip}
// on a device with `shader_cores` (vk::DeviceReport::shader_cores, 0: not reported), one wave of
// about 5 groups per core (blur_compute.cpp).
std::pair<uint32_t, uint32_t> separable_stream_groups(VkExtent2D extent, uint32_t shader_cores);

}  // namespace filterlab::filters
