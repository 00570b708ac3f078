#version 460
// tent comp.running (the running window's driver: filters/common/window_running.glsl): the tent with
// work that does not grow with the radius. Along each axis the tent's weights are a(i) = A - B|i| on
// |i| <= R (tent_window.glsl), so a window needs two sums: the box sum S0 = sum v and the ramp sum
// S1 = sum |i| v. A thread keeps S0 and S1 of its column and the half-windows L (the R texels above
// the centre row, itself included) and U (the R below), so that each step down is a few adds:
//   S1 += L - U + R v(y + 1 + R) - R v(y - R),  S0 += v(y + 1 + R) - v(y - R),
//   L += v(y + 1) - v(y + 1 - R),  U += v(y + 1 + R) - v(y + 1).
// Along the row, the window sums come from inclusive prefixes over the columns: box(x) =
// P[x + R] - P[x - R - 1] for the prefix P of the column values c, and the ramp from the triangle
// (R + 1 - |i|), a box of R + 1 of boxes of R + 1: with W(j) = P[j] - P[j - R - 1] and its prefix PW,
//   triangle(x) = PW[x + R] - PW[x - 1],  ramp(x) = (R + 1) box(x) - triangle(x).
// (A prefix of j c(j) would give the ramp from one scan, but it grows with j^2 and its rounding
// showed: 2e-4 at r = 2 where the family holds 1e-5.)
// rank 2 (6): out = sum_x a(x) S0 + sum_x S1' where S1' is the column's own tent A S0 - B S1: the
// row's tent of the column boxes plus the row's box of the column tents. Separable (5): out is the
// row's tent of the column tents (R: where max(A - B|i|, 0) stays above 0, renderer/filters/tent).
//! variant fp16 OUTPUT_FORMAT=rgba16f
//! variant fp32 OUTPUT_FORMAT=rgba32f
#extension GL_GOOGLE_include_directive : require
#include "filters/tent/tent_config.h"
#define GROUP_PREFIX_SLOTS 3
#include "filters/common/window_running.glsl"

layout(constant_id = TENT_RANK2_ID) const int RANK2 = 1;
layout(constant_id = TENT_A_ID) const float A = 0.0;
layout(constant_id = TENT_B_ID) const float B = 0.0;
layout(set = 0, binding = BINDING_DESTINATION, OUTPUT_FORMAT) writeonly uniform image2D destination;

// Per row, entry k + 1 holding the prefix through column k and entry 0 being 0: the prefixes of the
// column values the row's tent takes (tented), of the boxes of R + 1 of them (windowed), and of the
// values its box takes (boxed; rank 2 only).
shared vec4 tented[2][RUNNING_SPAN + 1], windowed[2][RUNNING_SPAN + 1], boxed[2][RUNNING_SPAN + 1];

struct RunningColumn {
  vec4 s0, s1, above, below;
};

vec4 running_value(ivec2 p) {
  return running_texel(p);
}

RunningColumn running_start() {
  if (strip_thread < 2) {
    tented[strip_thread][0] = vec4(0.0);
    windowed[strip_thread][0] = vec4(0.0);
    boxed[strip_thread][0] = vec4(0.0);
  }
  return RunningColumn(vec4(0.0), vec4(0.0), vec4(0.0), vec4(0.0));
}

void running_prime(inout RunningColumn c, int j, ivec2 p) {
  const vec4 d = running_value(p) - strip_anchor;
  c.s0 += d;
  c.s1 += float(abs(j)) * d;
  if (j > -RADIUS && j <= 0) c.above += d;
  if (j > 0) c.below += d;
}

void running_slide(inout RunningColumn c, int y) {
  const float r = float(RADIUS);
  const vec4 enters = running_value(ivec2(strip_column, y + RADIUS)) - strip_anchor;
  const vec4 leaves = running_value(ivec2(strip_column, y - 1 - RADIUS)) - strip_anchor;
  const vec4 centre = running_value(ivec2(strip_column, y)) - strip_anchor;
  const vec4 top = running_value(ivec2(strip_column, y - RADIUS)) - strip_anchor;  // leaves the upper half
  c.s1 += c.above - c.below + r * enters - r * leaves;
  c.s0 += enters - leaves;
  c.above += centre - top;
  c.below += enters - centre;
}

void running_row(inout RunningColumn c, int y, int slot) {
  const int t = strip_thread;
  const vec4 column_tent = A * c.s0 - B * c.s1;
  const vec4 v = RANK2 != 0 ? c.s0 : column_tent;  // what the row's tent takes
  const vec4 v_box = RANK2 != 0 ? column_tent : vec4(0.0);
  // The row's inclusive prefixes over the threads (columns). Threads past the span add nothing.
  vec4 p = strip_feeds ? v : vec4(0.0), p_box = strip_feeds ? v_box : vec4(0.0);
  group_prefix2(p, p_box, 0);
  if (strip_feeds) {
    tented[slot][t + 1] = p;
    boxed[slot][t + 1] = p_box;
  }
  barrier();
  // W(t): the box of R + 1 columns ending at t (the first R are never read, but stay finite).
  const vec4 w = strip_feeds ? p - tented[slot][max(t - RADIUS, 0)] : vec4(0.0);
  const vec4 pw = group_prefix(w, 2);
  if (strip_feeds) windowed[slot][t + 1] = pw;
  barrier();
  if (strip_writes()) {
    const float r = float(RADIUS);
    const int x = t + RADIUS;  // the window's centre in the span
    const vec4 box = tented[slot][x + RADIUS + 1] - tented[slot][x - RADIUS];
    const vec4 triangle = windowed[slot][x + RADIUS + 1] - windowed[slot][x];
    const vec4 ramp = (r + 1.0) * box - triangle;
    vec4 result = A * box - B * ramp;
    if (RANK2 != 0) result += boxed[slot][x + RADIUS + 1] - boxed[slot][x - RADIUS];
    imageStore(destination, ivec2(strip_corner.x + t, y), strip_anchor + result);
  }
}

#include "filters/common/window_running_main.glsl"
