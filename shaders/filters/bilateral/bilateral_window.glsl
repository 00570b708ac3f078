// The bilateral family's window sums (filters/common/window.glsl): kernel (4),
//   g(i, j) = exp(-(i^2 + j^2) / (2 sigma_d^2) - |I(x+i, y+j) - I(x, y)|^2 / (2 sigma_r^2)),
// the range term over the RGB distance, alpha filtered with the same weights, normalized by the
// sum of the weights. The accumulator: (sum of g x, sum of g, unused). Every weight depends on the
// target's own texel, so the quad methods pass the centres round the quad (WINDOW_CENTRE): the
// figure 9 cases of section 3.4 become the three targets each pixel sums for.
#ifndef FILTERLAB_BILATERAL_WINDOW_GLSL
#define FILTERLAB_BILATERAL_WINDOW_GLSL
#include "filters/bilateral/bilateral_config.h"

#define WINDOW_CENTRE

layout(constant_id = BILATERAL_SPATIAL_ID) const float SPATIAL = 0.0;
layout(constant_id = BILATERAL_RANGE_ID) const float RANGE = 0.0;

vec4 window_value(vec4 c) { return c; }
bool in_window(ivec2 o) { return true; }

Acc acc_empty(vec4 member) { return acc_zero(); }

void acc_add(inout Acc a, vec4 v, ivec2 o, vec4 centre, vec4 anchor) {
  const vec3 d = v.rgb - centre.rgb;
  const float w = exp2(-float(o.x * o.x + o.y * o.y) * SPATIAL - dot(d, d) * RANGE);
  a.v[0] += w * v;
  a.v[1].x += w;
}

Acc acc_join(Acc a, Acc b) {
  a.v[0] += b.v[0];
  a.v[1] += b.v[1];
  return a;
}

// The centre's own weight is 1, so the sum is at least 1.
vec4 window_result(Acc a, int k, vec4 centre, vec4 anchor) { return a.v[0] / a.v[1].x; }

#endif
