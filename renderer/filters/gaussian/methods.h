#pragma once
// What the gaussian family's methods share: the kernel a step asks for, the buffers holding its
// weights (the same numbers the CPU reference uses), device checks, and the lists of methods each
// file contributes.
//
// Buffer layouts (set 0, shaders/config.h):
//   weights (BINDING_WEIGHTS): float[2r+1], weights[r + i] = w(i) for i in [-r, r]; the 2D kernel
//            is w(i) w(j). For r <= GAUSSIAN_UNIFORM_MAX_RADIUS it is zero-padded to
//            GAUSSIAN_WEIGHT_VEC4S vec4s, so that it also binds as a std140 uniform block, and
//            followed by uint[2r+1]: w(i) rounded to half, in both 16-bit halves.
//   taps (BINDING_TAPS): vec2[r+1], (offset from the centre in texels, weight) of Chapman's
//            bilinear taps.
#include "common/kernel.h"
#include "filters/device_checks.h"
#include "filters/gaussian/gaussian.h"
#include "filters/gaussian/gaussian_config.h"
#include "vk/resources.h"
#include "vk/specialization.h"

#include <utility>

namespace filterlab::filters::gaussian {

common::KernelSpec kernel_spec(const ParamValues& params);

// Chapman, appendix A: adjacent weights paired from -r upward, (w[-r], w[-r+1]), (w[-r+2], w[-r+3]),
// ..., with w[+r] left alone: r+1 bilinear taps for 2r+1 weights. The pair (i, i+1) with weights
// a, b is one sample at offset i + b/(a+b) (texels from the centre) of weight a+b. Throws
// std::invalid_argument unless there are 2r+1 weights, all >= 0 (else b/(a+b) leaves [0, 1]).
struct LinearTap {
  double offset, weight;
};
std::vector<LinearTap> linear_taps(const std::vector<double>& weights);

// Throws ChainError when src_roi or dst_roi does not lie inside a width x height image.
void check_rois_fit(const ParamValues& params, uint32_t width, uint32_t height);

struct KernelBuffers {
  KernelBuffers(const vk::Context& ctx, const common::KernelSpec& spec);
  vk::Buffer weights, taps;
};

// The radius every method serves at most by design: the uniform block's size, the window
// methods' 33 weight constants, the fragment loops unrolled by the driver.
constexpr int kDesignMaxRadius = GAUSSIAN_UNIFORM_MAX_RADIUS;

// Available with no more than the core device, up to kDesignMaxRadius.
Support up_to_design_radius();

// comp.separable_stream's dispatch for an image of `extent`: {strips across, groups down each
// strip} on a device with `shader_cores` (vk::DeviceReport::shader_cores, 0: not reported), one
// wave of about 5 groups per core (compute.cpp).
std::pair<uint32_t, uint32_t> separable_stream_groups(VkExtent2D extent, uint32_t shader_cores);

// The family's own methods, a list per file; the rest (frag.full2d, frag.quad_derivative(_coarse),
// comp.full2d_shared, comp.quad_subgroup, comp.quad_derivative, comp.separable_shared) come from
// the window drivers (family.cpp).
std::vector<Method> fragment_methods();  // fragment.cpp: frag.separable(_linear), frag.full2d_linear
std::vector<Method> compute_methods();   // compute.cpp: comp.separable_{fused,stream,stream_half,shuffle}
std::vector<Method> tiled_methods();     // tiled.cpp: comp.tiled

}  // namespace filterlab::filters::gaussian
