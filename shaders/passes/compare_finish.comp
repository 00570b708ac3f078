#version 460
#extension GL_GOOGLE_include_directive : require
#include "compare_reduction.glsl"
// A/B compare, step 2 of the metrics: one workgroup folds the per-tile partials into the result
// (the metrics' host-visible buffer of this frame in flight, or the display's automatic gain).
// Each invocation sums its share with Kahan compensation (`precise` keeps the compiler from
// simplifying the correction away), then the shared tree adds the 256 shares.
layout(local_size_x = 256) in;
layout(set = 0, binding = BINDING_COMPARE_PARTIALS, std430) readonly buffer Partials { vec4 partials[]; };
// sums: squared-difference sums of R, G, B, then the largest |A-B|; info: width, height and the
// frame index (low, high word). width == 0 means "never written".
layout(set = 0, binding = BINDING_COMPARE_RESULT, std430) writeonly buffer Result {
  vec4 sums;
  uvec4 info;
};
layout(push_constant) uniform Push {
  uint count;  // partials written by step 1
  uint width;
  uint height;
  uint frame_low;
  uint frame_high;
};

void main() {
  precise vec3 sum = vec3(0.0);
  precise vec3 carry = vec3(0.0);
  float worst = 0.0;
  for (uint i = gl_LocalInvocationIndex; i < count; i += 256) {
    const vec4 p = partials[i];
    precise vec3 y = p.xyz - carry;
    precise vec3 t = sum + y;
    carry = (t - sum) - y;
    sum = t;
    worst = max(worst, p.w);
  }
  const vec4 total = reduce_workgroup(vec4(sum, worst));
  if (gl_LocalInvocationIndex == 0u) {
    sums = total;
    info = uvec4(width, height, frame_low, frame_high);
  }
}
