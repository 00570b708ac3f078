#version 460
#extension GL_GOOGLE_include_directive : require
#include "compare_reduction.glsl"
// Automatic exposure, step 2: one group adds the tiles' sums (Kahan, as compare_finish.comp) and
// writes EXPOSURE_KEY over the geometric mean luminance, which the tonemap multiplies in.
layout(local_size_x = 256) in;
layout(set = 0, binding = BINDING_EXPOSURE_PARTIALS, std430) readonly buffer Partials { vec4 partials[]; };
layout(set = 0, binding = BINDING_EXPOSURE_RESULT, std430) writeonly buffer Result { float exposure; };
layout(push_constant) uniform Push { uint count; };

void main() {
  precise vec2 sum = vec2(0.0);
  precise vec2 carry = vec2(0.0);
  for (uint i = gl_LocalInvocationIndex; i < count; i += 256) {
    precise vec2 y = partials[i].xy - carry;
    precise vec2 t = sum + y;
    carry = (t - sum) - y;
    sum = t;
  }
  const vec4 total = reduce_workgroup(vec4(sum, 0.0, 0.0));
  if (gl_LocalInvocationIndex == 0u) exposure = float(EXPOSURE_KEY) / exp(total.x / max(total.y, 1.0));
}
