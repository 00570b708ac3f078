// Window filters: a family whose output at p is a function of the (2r+1)^2 texels around it (the
// tent, the variance statistics, the bilateral) writes what it sums, and these drivers supply
// every method: the fetch loop, the quad exchange, the shared-memory tile, and for separable sums
// the two-stage tile. The family's shader is
//
//   #version 460
//   //! variant ... (one per method and format: see window_main.glsl)
//   #define ACC_VEC4S 2                      // the accumulator: vec4s summed (or min/maxed)
//   #include "filters/common/window.glsl"     // this file: RADIUS, the source, struct Acc
//   ... the family's functions (below) ...
//   #include "filters/common/window_main.glsl"
//
// What a family defines between the two includes:
//   vec4 window_value(vec4 texel)       the value a texel contributes (a colour space)
//   bool in_window(ivec2 o)             whether offset o (|o.x|, |o.y| <= RADIUS: the drivers test
//                                       that first) is in the window's shape
//   Acc acc_empty(vec4 member)         no terms yet, for a window that `member` belongs to (its
//                                       centre): min and max may start from it
//   void acc_add(inout Acc a, vec4 v, ivec2 o, vec4 centre, vec4 anchor)
//                                       adds value v at offset o from the target pixel, whose own
//                                       value is `centre`; `anchor` is one value common to the
//                                       target's 2x2 quad (a shift for sums of squares)
//   Acc acc_join(Acc a, Acc b)          two partial sums over disjoint parts of one window
//   vec4 window_result(Acc a, int k, vec4 centre, vec4 anchor)   output k < WINDOW_OUTPUTS
//   WINDOW_OUTPUTS                      1 or 2 images
//   WINDOW_CENTRE                       defined: acc_add reads `centre` (the quad methods then
//                                       pass the targets' centres along the quad)
// and for the separable tile (a window sum that factors into a row sum and a column sum):
//   void acc_add_row(inout Acc a, vec4 v, int j, vec4 anchor)    horizontal tap j
//   void acc_add_rows(inout Acc a, Acc row, int i)               vertical tap i
#ifndef FILTERLAB_WINDOW_GLSL
#define FILTERLAB_WINDOW_GLSL
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#include "filters/common/window_config.h"

#if defined(QUAD_FRAGMENT_FINE) || defined(QUAD_FRAGMENT_COARSE) || defined(QUAD_SUBGROUP) || \
    defined(QUAD_COMPUTE_DERIVATIVES)
#define WINDOW_QUAD 1
#define QUAD_TILE WINDOW_QUAD_GROUP
#include "filters/common/quad_exchange.glsl"
#endif

#if defined(WINDOW_TERMS) && !defined(ACC_VEC4S)
#define ACC_VEC4S WINDOW_TERMS  // a row sum per term (window_terms.glsl)
#endif
#ifndef ACC_VEC4S
#error "a window family defines ACC_VEC4S before including window.glsl"
#endif
struct Acc {
  vec4 v[ACC_VEC4S];
};

layout(constant_id = WINDOW_RADIUS_ID) const int RADIUS = 1;

// Every vec4 of the accumulator 0: acc_empty() of a family whose sums start from nothing.
Acc acc_zero() {
  Acc a;
  [[unroll]] for (int k = 0; k < ACC_VEC4S; ++k) a.v[k] = vec4(0.0);
  return a;
}

#if defined(WINDOW_QUAD)
Acc acc_from_x(Acc a, float t) {
  Acc r;
  [[unroll]] for (int k = 0; k < ACC_VEC4S; ++k) r.v[k] = from_x_neighbour(a.v[k], t);
  return r;
}
Acc acc_from_y(Acc a, float t) {
  Acc r;
  [[unroll]] for (int k = 0; k < ACC_VEC4S; ++k) r.v[k] = from_y_neighbour(a.v[k], t);
  return r;
}

// The quad exchange for any window sum (window_main.glsl); a family's own quad_sum may fall back
// on it for the windows its shortcut does not cover.
Acc quad_sum_any(ivec2 p, vec4 centre, vec4 anchor);
#endif
layout(set = 0, binding = BINDING_SOURCE) uniform sampler2D source;

// Clamp to edge, like every reference.
vec4 texel_clamped(ivec2 p) { return texelFetch(source, clamp(p, ivec2(0), textureSize(source, 0) - 1), 0); }

// The anchor of p's 2x2 quad: the texel at its even corner, the same for all four pixels (and
// inside all four windows), so that partial sums shifted by it can cross the quad.
ivec2 quad_anchor(ivec2 p) { return p & ~1; }

#endif
