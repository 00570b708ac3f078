#version 460
#extension GL_GOOGLE_include_directive : require
#include "display_common.glsl"
#include "view_common.glsl"
// The viewport's view of a colour or motion image: mip 0 of `source`, visualized by kind, into an
// RGBA8 image holding display-ready (sRGB-encoded) values. The kind is a specialization constant,
// so each kind is its own small pipeline. Depth has its own shader (view_depth.comp): only it
// binds a buffer, which the validation layers would count as used by every kind of this one.

// Mirrors ViewKind (Depth, 2, is view_depth.comp's).
const uint kHdr = 0, kDisplay = 1, kMotion = 3;
layout(constant_id = VIEW_MODE_ID) const uint kMode = kHdr;

const float kMotionBlue = 128.0 / 255.0;

vec3 picked(vec4 texel) {
  if (channel != 0u) return vec3(texel[min(channel, 4u) - 1u]);
  return components == 1u ? texel.rrr : texel.rgb;
}

void main() {
  const ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (any(greaterThanEqual(p, imageSize(view)))) return;
  const vec4 texel = texelFetch(source, p, 0);
  vec4 shown;
  if (kMode == kHdr) {
    shown = vec4(srgb_encode(tonemap(picked(texel) * exposure, curve)), 1.0);
  } else if (kMode == kDisplay) {
    const vec4 display = srgb_source != 0u ? vec4(srgb_encode(texel.rgb), texel.a) : texel;
    shown = vec4(picked(display), channel == 0u ? display.a : 1.0);
  } else {
    shown = vec4(clamp(0.5 + texel.rg * motion_scale, 0.0, 1.0), kMotionBlue, 1.0);
  }
  imageStore(view, p, shown);
}
