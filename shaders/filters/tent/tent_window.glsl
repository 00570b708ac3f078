// The tent family's kernel as window sums (filters/common/window.glsl), written as the sum of two
// separable terms, g(i, j) = hA(j) vA(i) + hB(j) vB(i), zero outside |i|, |j| <= r:
//   rank 2 (kernel (6)), g / S = (k/2 - b|i|)/S + (k/2 - b|j|)/S:  with a(i) = A - B|i|,
//     A = k / (2S), B = b / S:  hA = a, vA = 1, hB = 1, vB = a
//   separable (kernel (5)), t(i) = max(k - b|i|, 0) / T with T the sum of the 1D weights,
//     A = k / T, B = b / T:  hA = vA = max(A - B|i|, 0), hB = vB = 0
// S and T are the kernel's sums, computed in double on the host. The accumulator's first vec4 is
// the filtered value; comp.separable_shared's row sums use both (the term A and B row sums).
#ifndef FILTERLAB_TENT_WINDOW_GLSL
#define FILTERLAB_TENT_WINDOW_GLSL
#include "filters/tent/tent_config.h"

layout(constant_id = TENT_RANK2_ID) const int RANK2 = 1;
layout(constant_id = TENT_A_ID) const float A = 0.0;
layout(constant_id = TENT_B_ID) const float B = 0.0;

bool inside(int i) { return abs(i) <= RADIUS; }
float a_weight(int i) { return RANK2 != 0 ? A - B * float(abs(i)) : max(A - B * float(abs(i)), 0.0); }
float h_a(int j) { return inside(j) ? a_weight(j) : 0.0; }
float v_a(int i) { return inside(i) ? (RANK2 != 0 ? 1.0 : a_weight(i)) : 0.0; }
float h_b(int j) { return inside(j) && RANK2 != 0 ? 1.0 : 0.0; }
float v_b(int i) { return inside(i) && RANK2 != 0 ? a_weight(i) : 0.0; }
float weight(ivec2 o) { return h_a(o.x) * v_a(o.y) + h_b(o.x) * v_b(o.y); }

vec4 window_value(vec4 c) { return c; }
bool in_window(ivec2 o) { return true; }

Acc acc_empty(vec4 member) { return acc_zero(); }
void acc_add(inout Acc a, vec4 v, ivec2 o, vec4 centre, vec4 anchor) { a.v[0] += weight(o) * v; }
Acc acc_join(Acc a, Acc b) {
  a.v[0] += b.v[0];
  a.v[1] += b.v[1];
  return a;
}
vec4 window_result(Acc a, int k, vec4 centre, vec4 anchor) { return a.v[0]; }

void acc_add_row(inout Acc a, vec4 v, int j, vec4 anchor) {
  a.v[0] += h_a(j) * v;
  a.v[1] += h_b(j) * v;
}
void acc_add_rows(inout Acc a, Acc row, int i) { a.v[0] += v_a(i) * row.v[0] + v_b(i) * row.v[1]; }

#if defined(WINDOW_QUAD)
// Section 3.2, the rank-2 kernel: uniform sampling, each pixel reads the (r+1)^2 texels at
// p + (j, i), i, j in T = {-r, -r+2, ..., r}. The paper exchanges every row's two partial sums
// (p_i and u_i) along x, then one sum along y: 2(r+1) + 1 exchanges. The exchanges are linear, so
// the rows fold first: summed with their vertical weights, ours (vA, vB at i) and the
// y-neighbour's (at i - t_y), the two terms together, the x-neighbour's part of every row crosses
// in one exchange. Three exchanges whatever r and whatever the rank, as for the Gaussian.
#define FAMILY_QUAD_SUM
Acc quad_sum(ivec2 p, vec4 centre, vec4 anchor) {
  const int sx = (p.x & 1) == 0 ? 1 : -1, sy = (p.y & 1) == 0 ? 1 : -1;
  vec4 own = vec4(0.0), for_x = vec4(0.0);              // our vertical weights
  vec4 own_for_y = vec4(0.0), for_x_for_y = vec4(0.0);  // the y-neighbour's
  for (int r = 0; r <= RADIUS; ++r) {
    const int i = 2 * r - RADIUS;
    // Row sums with our horizontal weights (a, b terms) and with the x-neighbour's (j - t_x).
    vec4 row_a = vec4(0.0), row_b = vec4(0.0), row_a_x = vec4(0.0), row_b_x = vec4(0.0);
    for (int c = 0; c <= RADIUS; ++c) {
      const int j = 2 * c - RADIUS;
      const vec4 v = texel_clamped(p + ivec2(j, i));
      row_a += h_a(j) * v;
      row_b += h_b(j) * v;
      row_a_x += h_a(j - sx) * v;
      row_b_x += h_b(j - sx) * v;
    }
    own += v_a(i) * row_a + v_b(i) * row_b;
    for_x += v_a(i) * row_a_x + v_b(i) * row_b_x;
    own_for_y += v_a(i - sy) * row_a + v_b(i - sy) * row_b;
    for_x_for_y += v_a(i - sy) * row_a_x + v_b(i - sy) * row_b_x;
  }
  // From the x-neighbour (equation 9): both sums now cover all 2r+1 columns of our rows; then
  // from the y-neighbour (equation 10) the r rows we did not read.
  const vec4 sum = own + from_x_neighbour(for_x, float(sx));
  const vec4 sum_for_y = own_for_y + from_x_neighbour(for_x_for_y, float(sx));
  Acc a = acc_empty(centre);
  a.v[0] = sum + from_y_neighbour(sum_for_y, float(sy));
  return a;
}
#endif

#endif
