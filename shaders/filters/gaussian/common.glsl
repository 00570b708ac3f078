// Shared by the fragment methods: the radius is a specialization constant so loops unroll, and the
// kernel comes from the same C++ code as the CPU reference (renderer/common/kernel.cpp).
#ifndef FILTERLAB_GAUSSIAN_COMMON_GLSL
#define FILTERLAB_GAUSSIAN_COMMON_GLSL
#include "filters/gaussian/gaussian_config.h"

layout(constant_id = GAUSSIAN_RADIUS_ID) const int RADIUS = 2;

layout(set = 0, binding = BINDING_SOURCE) uniform sampler2D source;
// weights[RADIUS + i] = w(i) for i in [-RADIUS, RADIUS], normalized; the 2D kernel is w(i) w(j).
layout(set = 0, binding = BINDING_WEIGHTS, std430) readonly buffer Weights { float weights[]; };
// Bilinear taps: (offset in texels from the center, weight), RADIUS + 1 of them.
layout(set = 0, binding = BINDING_TAPS, std430) readonly buffer Taps { vec2 taps[]; };

float weight(int i) { return weights[RADIUS + i]; }

// Clamp-to-edge for exact fetches: every method shares this border rule with the reference.
vec4 fetch_clamped(ivec2 p) { return texelFetch(source, clamp(p, ivec2(0), textureSize(source, 0) - 1), 0); }

#endif
