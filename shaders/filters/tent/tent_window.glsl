// The tent family's kernel as a sum of two separable terms (filters/common/window_terms.glsl),
// g(x, y) = h0(x) v0(y) + h1(x) v1(y), |x|, |y| <= r:
//   rank 2 (kernel (6)), g / S = (k/2 - b|x|)/S + (k/2 - b|y|)/S:  with a(i) = A - B|i|,
//     A = k / (2S), B = b / S:  h0 = a, v0 = 1, h1 = 1, v1 = a
//   separable (kernel (5)), t(i) = max(k - b|i|, 0) / T with T the sum of the 1D weights,
//     A = k / T, B = b / T:  h0 = v0 = max(A - B|i|, 0), h1 = v1 = 0
// S and T are the kernel's sums, computed in double on the host.
#ifndef FILTERLAB_TENT_WINDOW_GLSL
#define FILTERLAB_TENT_WINDOW_GLSL
#include "filters/tent/tent_config.h"

layout(constant_id = TENT_RANK2_ID) const int RANK2 = 1;
layout(constant_id = TENT_A_ID) const float A = 0.0;
layout(constant_id = TENT_B_ID) const float B = 0.0;

float a_weight(int i) { return RANK2 != 0 ? A - B * float(abs(i)) : max(A - B * float(abs(i)), 0.0); }
float term_h(int t, int x) {
  if (abs(x) > RADIUS) return 0.0;
  return t == 0 ? a_weight(x) : (RANK2 != 0 ? 1.0 : 0.0);
}
float term_v(int t, int y) {
  if (abs(y) > RADIUS) return 0.0;
  return t == 0 ? (RANK2 != 0 ? 1.0 : a_weight(y)) : (RANK2 != 0 ? a_weight(y) : 0.0);
}

#endif
