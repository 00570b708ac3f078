#version 460
#extension GL_GOOGLE_include_directive : require
#include "view_common.glsl"
#include "view_depth_range.glsl"
// The viewport's view of a depth image: raw depth to gray over the range the push constants give,
// or this frame's range, which view_depth_range.comp found before this pass. ViewPass documents
// the mapping (io::depth_to_display is the CPU one).

layout(set = 0, binding = BINDING_VIEW_RANGE, std430) readonly buffer DepthRange {
  uint range_lo;
  uint range_hi;
};

// io::depth_to_display's ramp: the farthest geometry stops at dark gray, so it stays distinct from
// clear (depth 1) pixels, which are black.
const float kNearGray = 1.0, kFarGray = 48.0 / 255.0;

vec4 depth_view(ivec2 p) {
  const float d = texelFetch(source, p, 0).r;
  if (!(d < 1.0)) return vec4(0.0, 0.0, 0.0, 1.0);  // clear, beyond far, or NaN
  float lo = depth_lo, hi = depth_hi;
  if (!(hi > lo)) {
    lo = from_order_key(range_lo);
    hi = from_order_key(range_hi);
  }
  // Auto range with a single depth value: mid-ramp, as the capture does.
  const float t = hi > lo ? clamp((d - lo) / (hi - lo), 0.0, 1.0) : 0.5;
  return vec4(vec3(mix(kNearGray, kFarGray, t)), 1.0);
}

void main() {
  const ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (all(lessThan(p, imageSize(view)))) imageStore(view, p, depth_view(p));
}
