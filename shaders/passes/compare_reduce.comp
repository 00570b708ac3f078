#version 460
#extension GL_GOOGLE_include_directive : require
#include "compare_reduction.glsl"
// A/B compare, step 1 of the metrics: each 16x16 workgroup reduces a 32x32 tile (2x2 pixels per
// invocation) to one partial: the sums of squared differences of R, G, B and the largest |A-B|.
// Summing a tile in a shared-memory tree, then the partials in a second pass, keeps the fp32
// error near log2(pixels) roundings; one running float sum (or float atomics) over a 4K image
// would lose whole digits once the total dwarfs each term.
layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = BINDING_COMPARE_A) uniform sampler2D image_a;
layout(set = 0, binding = BINDING_COMPARE_B) uniform sampler2D image_b;
layout(set = 0, binding = BINDING_COMPARE_PARTIALS, std430) writeonly buffer Partials { vec4 partials[]; };

void main() {
  const ivec2 size = textureSize(image_a, 0);
  const ivec2 origin = ivec2(gl_WorkGroupID.xy) * 32 + ivec2(gl_LocalInvocationID.xy);
  vec3 sum = vec3(0.0);
  float worst = 0.0;
  // Strided by 16 so that in each step the workgroup reads whole 16-pixel rows, like a copy.
  for (int j = 0; j < 2; ++j)
    for (int i = 0; i < 2; ++i) {
      const ivec2 p = origin + 16 * ivec2(i, j);
      if (any(greaterThanEqual(p, size))) continue;
      const vec3 d = texelFetch(image_a, p, 0).rgb - texelFetch(image_b, p, 0).rgb;
      sum += d * d;
      const vec3 ad = abs(d);
      // max() with a NaN operand is undefined: report NaN as an infinite difference, as the CPU
      // metrics do, instead of letting it vanish.
      worst = any(isnan(d)) ? uintBitsToFloat(0x7f800000u) : max(worst, max(ad.r, max(ad.g, ad.b)));
    }
  const vec4 tile = reduce_workgroup(vec4(sum, worst));
  if (gl_LocalInvocationIndex == 0u)
    partials[gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x] = tile;
}
