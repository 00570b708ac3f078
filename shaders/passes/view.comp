#version 460
#extension GL_GOOGLE_include_directive : require
#include "display_common.glsl"
// The viewport's view of any graph image: mip 0 of `source`, visualized by kind, into an RGBA8
// image holding display-ready (sRGB-encoded) values. The kind is a specialization constant, so
// each kind is its own small pipeline; ViewPass documents the mappings and the CPU tests restate them.
layout(local_size_x = 16, local_size_y = 16) in;

// Mirrors ViewPass's Mode.
const uint kHdr = 0, kDisplay = 1, kDepth = 2, kMotion = 3, kDepthRange = 4;
layout(constant_id = 0) const uint kMode = kHdr;

layout(set = 0, binding = 0) uniform sampler2D source;
layout(set = 0, binding = 1, rgba8) uniform writeonly image2D view;
// Depth: the nearest and farthest geometry depth of this frame, as order keys (see order_key),
// from the kDepthRange step. The host starts them at 0xffffffff and 0.
layout(set = 0, binding = 2, std430) buffer DepthRange {
  uint range_lo;
  uint range_hi;
};
// Mirrors ViewPass's ViewPush.
layout(push_constant) uniform Push {
  uint components;    // channels the source format has (missing ones read as 0, alpha as 1)
  uint channel;       // 0: colour; 1..4: R, G, B or A alone, as gray
  float exposure;     // HDR
  float motion_scale; // motion: colour offset per pixel moved
  float depth_lo;     // depth: raw depth shown white ...
  float depth_hi;     // ... and dark gray; depth_hi <= depth_lo: this frame's range (auto)
  uint srgb_source;   // display: the source is an _SRGB format, which texelFetch decodes
};

// io::depth_to_display's ramp: the farthest geometry stops at dark gray, so it stays distinct from
// clear (depth 1) pixels, which are black.
const float kNearGray = 1.0, kFarGray = 48.0 / 255.0;
const float kMotionBlue = 128.0 / 255.0;

// A float's bits reordered so that unsigned order is float order (negative values too), for
// integer atomics min/max.
uint order_key(float value) {
  const uint bits = floatBitsToUint(value);
  return (bits & 0x80000000u) != 0u ? ~bits : bits | 0x80000000u;
}

float from_order_key(uint key) {
  return uintBitsToFloat((key & 0x80000000u) != 0u ? key & 0x7fffffffu : ~key);
}

vec3 picked(vec4 texel) {
  if (channel != 0u) return vec3(texel[min(channel, 4u) - 1u]);
  return components == 1u ? texel.rrr : texel.rgb;
}

shared uint group_lo, group_hi;

// One shared-memory min/max per workgroup, then one global atomic per workgroup: a global atomic
// per pixel would serialize millions of operations on one address.
void reduce_depth_range(ivec2 p, bool inside) {
  if (gl_LocalInvocationIndex == 0u) {
    group_lo = 0xffffffffu;
    group_hi = 0u;
  }
  barrier();
  if (inside) {
    const float d = texelFetch(source, p, 0).r;
    if (d < 1.0) {  // geometry; clear pixels (1) and NaN do not count
      atomicMin(group_lo, order_key(d));
      atomicMax(group_hi, order_key(d));
    }
  }
  barrier();
  if (gl_LocalInvocationIndex == 0u && group_lo <= group_hi) {
    atomicMin(range_lo, group_lo);
    atomicMax(range_hi, group_hi);
  }
}

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
  const bool inside = all(lessThan(p, imageSize(view)));
  if (kMode == kDepthRange) {
    reduce_depth_range(p, inside);  // contains barrier(): every invocation must reach it
    return;
  }
  if (!inside) return;
  vec4 shown;
  if (kMode == kHdr) {
    const vec3 color = max(picked(texelFetch(source, p, 0)) * exposure, vec3(0.0));
    shown = vec4(srgb_encode(aces_fit(color)), 1.0);
  } else if (kMode == kDisplay) {
    vec4 texel = texelFetch(source, p, 0);
    if (srgb_source != 0u) texel.rgb = srgb_encode(texel.rgb);
    shown = vec4(picked(texel), channel == 0u ? texel.a : 1.0);
  } else if (kMode == kDepth) {
    shown = depth_view(p);
  } else {
    const vec2 motion = texelFetch(source, p, 0).rg;
    shown = vec4(clamp(0.5 + motion * motion_scale, 0.0, 1.0), kMotionBlue, 1.0);
  }
  imageStore(view, p, shown);
}
