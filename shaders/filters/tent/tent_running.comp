#version 460
// tent comp.running: the tent with work that does not grow with the radius. Along each axis the
// tent's weights are a(i) = A - B|i| on |i| <= R (tent_window.glsl), so a window needs two sums: the
// box sum S0 = sum v and the ramp sum S1 = sum |i| v. A group owns a strip TENT_RUNNING_COLS outputs
// wide and `ROWS` tall (running_rows in renderer/filters/window_methods.h); thread t walks down input
// column t of the strip and its apron keeping S0 and S1 of the column and the half-windows L (the R
// texels above the centre row, itself included) and U (the R below), so that each step down is a
// few adds:
//   S1 += L - U + R v(y + 1 + R) - R v(y - R),  S0 += v(y + 1 + R) - v(y - R),
//   L += v(y + 1) - v(y + 1 - R),  U += v(y + 1 + R) - v(y + 1).
// Along the row, the window sums come from inclusive prefixes over the columns (subgroup scans,
// then the subgroups' totals through shared memory): box(x) = P[x + R] - P[x - R - 1] for the
// prefix P of the column values c, and the ramp from the triangle (R + 1 - |i|), a box of R + 1 of
// boxes of R + 1: with W(j) = P[j] - P[j - R - 1] and its prefix PW,
//   triangle(x) = PW[x + R] - PW[x - 1],  ramp(x) = (R + 1) box(x) - triangle(x).
// (A prefix of j c(j) would give the ramp from one scan, but it grows with j^2 and its rounding
// showed: 2e-4 at r = 2 where the family holds 1e-5.)
// rank 2 (6): out = sum_x a(x) S0 + sum_x S1' where S1' is the column's own tent A S0 - B S1: the
// row's tent of the column boxes plus the row's box of the column tents. Separable (5): out is the
// row's tent of the column tents (R: where max(A - B|i|, 0) stays above 0, renderer/filters/tent).
// Every value is taken relative to the strip's corner texel (the weights sum to 1), so sums carry
// the image's variation, not its level.
//! variant fp16 OUTPUT_FORMAT=rgba16f
//! variant fp32 OUTPUT_FORMAT=rgba32f
#extension GL_GOOGLE_include_directive : require
#include "filters/tent/tent_config.h"
#define GROUP_PREFIX_SLOTS 3
#include "filters/common/group_prefix.glsl"

layout(local_size_x_id = TENT_RUNNING_THREADS_ID) in;
layout(constant_id = WINDOW_RADIUS_ID) const int RADIUS = 1;
layout(constant_id = TENT_RANK2_ID) const int RANK2 = 1;
layout(constant_id = TENT_A_ID) const float A = 0.0;
layout(constant_id = TENT_B_ID) const float B = 0.0;
layout(constant_id = TENT_RUNNING_ROWS_ID) const int ROWS = 64;
layout(set = 0, binding = BINDING_SOURCE) uniform sampler2D source;
layout(set = 0, binding = BINDING_DESTINATION, OUTPUT_FORMAT) writeonly uniform image2D destination;

const int COLS = TENT_RUNNING_COLS;
const int SPAN = COLS + 2 * RADIUS;  // input columns of a strip
// Per row (two rows' worth: one is written while the one before may still be read), entry k + 1
// holding the prefix through column k and entry 0 being 0: the prefixes of the column values the
// row's tent takes (tented), of the boxes of R + 1 of them (windowed), and of the values its box
// takes (boxed; rank 2 only).
shared vec4 tented[2][SPAN + 1], windowed[2][SPAN + 1], boxed[2][SPAN + 1];

vec4 value(ivec2 p) {
  return texelFetch(source, clamp(p, ivec2(0), textureSize(source, 0) - 1), 0);
}

void main() {
  const ivec2 size = textureSize(source, 0);
  const ivec2 corner = ivec2(gl_WorkGroupID.xy) * ivec2(COLS, ROWS);
  const int last = min(corner.y + ROWS, size.y);  // rows [corner.y, last)
  const vec4 anchor = value(corner);
  const int t = int(gl_LocalInvocationIndex);
  const int column = corner.x - RADIUS + t;
  const bool feeds = t < SPAN;
  if (t < 2) {
    tented[t][0] = vec4(0.0);
    windowed[t][0] = vec4(0.0);
    boxed[t][0] = vec4(0.0);
  }
  // The column's sums for row corner.y - 1; every row below moves them down by one.
  vec4 s0 = vec4(0.0), s1 = vec4(0.0), above = vec4(0.0), below = vec4(0.0);
  if (feeds)
    for (int j = -RADIUS; j <= RADIUS; ++j) {
      const vec4 d = value(ivec2(column, corner.y - 1 + j)) - anchor;
      s0 += d;
      s1 += float(abs(j)) * d;
      if (j > -RADIUS && j <= 0) above += d;
      if (j > 0) below += d;
    }
  const float r = float(RADIUS);
  for (int y = corner.y; y < last; ++y) {
    if (feeds) {
      // From row y - 1 to row y.
      const vec4 enters = value(ivec2(column, y + RADIUS)) - anchor;
      const vec4 leaves = value(ivec2(column, y - 1 - RADIUS)) - anchor;
      const vec4 centre = value(ivec2(column, y)) - anchor;
      const vec4 top = value(ivec2(column, y - RADIUS)) - anchor;  // leaves the upper half-window
      s1 += above - below + r * enters - r * leaves;
      s0 += enters - leaves;
      above += centre - top;
      below += enters - centre;
    }
    const vec4 column_tent = A * s0 - B * s1;
    const vec4 c = RANK2 != 0 ? s0 : column_tent;  // what the row's tent takes
    const vec4 c_box = RANK2 != 0 ? column_tent : vec4(0.0);
    const int slot = y & 1;
    // The row's inclusive prefixes over the threads (columns). Threads past the span add nothing.
    vec4 p = feeds ? c : vec4(0.0), p_box = feeds ? c_box : vec4(0.0);
    group_prefix2(p, p_box, 0);
    if (feeds) {
      tented[slot][t + 1] = p;
      boxed[slot][t + 1] = p_box;
    }
    barrier();
    // W(t): the box of R + 1 columns ending at t (the first R are never read, but stay finite).
    const vec4 w = feeds ? p - tented[slot][max(t - RADIUS, 0)] : vec4(0.0);
    const vec4 pw = group_prefix(w, 2);
    if (feeds) windowed[slot][t + 1] = pw;
    barrier();
    if (t < COLS && corner.x + t < size.x) {
      // Output t: the window's centre is column x = t + R of the span.
      const int x = t + RADIUS;
      const vec4 box = tented[slot][x + RADIUS + 1] - tented[slot][x - RADIUS];
      const vec4 triangle = windowed[slot][x + RADIUS + 1] - windowed[slot][x];
      const vec4 ramp = (r + 1.0) * box - triangle;
      vec4 result = A * box - B * ramp;
      if (RANK2 != 0) result += boxed[slot][x + RADIUS + 1] - boxed[slot][x - RADIUS];
      imageStore(destination, ivec2(corner.x + t, y), anchor + result);
    }
  }
}
