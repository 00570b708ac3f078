#version 460
// convolve direct.separable, one pass of one term of the kernel's decomposition, k ~ sum over terms
// of column(b) row(a) (renderer/filters/convolve/direct.cpp): the rows pass filters the input
// along x with the term's row vector; the columns pass filters that along y with its column vector
// and adds the sum of the terms before it. Every tap is a texelFetch (clamp to edge).
//! variant rows OUTPUT_FORMAT=rgba32f
//! variant columns.fp16 COLUMNS=1 OUTPUT_FORMAT=rgba16f
//! variant columns.fp32 COLUMNS=1 OUTPUT_FORMAT=rgba32f
#extension GL_GOOGLE_include_directive : require
#include "filters/convolve/convolve_config.h"

layout(local_size_x = CONVOLVE_GROUP, local_size_y = CONVOLVE_GROUP) in;
layout(constant_id = CONVOLVE_KERNEL_WIDTH_ID) const int KW = 3;
layout(constant_id = CONVOLVE_KERNEL_HEIGHT_ID) const int KH = 3;
layout(constant_id = CONVOLVE_ACCUMULATE_ID) const int ACCUMULATE = 0;
layout(set = 0, binding = BINDING_SOURCE) uniform sampler2D source;
layout(set = 0, binding = BINDING_DESTINATION, OUTPUT_FORMAT) uniform writeonly image2D destination;
layout(set = 0, binding = BINDING_FAMILY_DATA, std430) readonly buffer Terms {
  vec4 weight[];  // term t: row vector at 2 t CONVOLVE_MAX_KERNEL, column vector CONVOLVE_MAX_KERNEL on
};
#if defined(COLUMNS)
layout(set = 0, binding = BINDING_CONVOLVE_SUM) uniform sampler2D previous;
#endif
layout(push_constant) uniform Push {
  SeparablePush push;
};

void main() {
  const ivec2 p = ivec2(gl_GlobalInvocationID.xy), size = textureSize(source, 0);
  if (any(greaterThanEqual(p, imageSize(destination)))) return;
#if defined(COLUMNS)
  const int taps = KH, centre = KH / 2, base = (2 * int(push.term) + 1) * CONVOLVE_MAX_KERNEL;
  const ivec2 along = ivec2(0, 1);
#else
  const int taps = KW, centre = KW / 2, base = 2 * int(push.term) * CONVOLVE_MAX_KERNEL;
  const ivec2 along = ivec2(1, 0);
#endif
  vec4 total = vec4(0.0);
  for (int a = 0; a < taps; ++a)
    total = fma(weight[base + a], texelFetch(source, clamp(p + (centre - a) * along, ivec2(0), size - 1), 0), total);
#if defined(COLUMNS)
  if (ACCUMULATE != 0) total += texelFetch(previous, p, 0);
#endif
  imageStore(destination, p, total);
}
