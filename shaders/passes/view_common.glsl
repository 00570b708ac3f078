#ifndef VIEW_COMMON_GLSL
#define VIEW_COMMON_GLSL
// What the viewport's view shaders that write a view share: view.comp shows colour and motion,
// view_depth.comp depth. Each kind is a specialization of one of them; ViewPass documents the
// mappings and the CPU tests restate them. The depth range step has a shader of its own
// (view_depth_range.comp), which binds only the source and the range buffer.
#include "view_source.glsl"

layout(set = 0, binding = BINDING_VIEW_OUTPUT, rgba8) uniform writeonly image2D view;
// Mirrors ViewPass's ViewPush.
layout(push_constant) uniform Push {
  uint components;    // channels the source format has (missing ones read as 0, alpha as 1)
  uint channel;       // 0: colour; 1..4: R, G, B or A alone, as gray
  float exposure;     // HDR
  float motion_scale; // motion: colour offset per pixel moved
  float depth_lo;     // depth: raw depth shown white ...
  float depth_hi;     // ... and dark gray; depth_hi <= depth_lo: this frame's range (auto)
  uint srgb_source;   // display: the source is an _SRGB format, which texelFetch decodes
  uint curve;         // HDR: TONEMAP_*
};

#endif
