#pragma once
// The tent family: the paper's rank-2 tent (6), g(i, j) = k - b(|i| + |j|), and the separable tent
// (5), max(k - b|i|, 0) max(k - b|j|, 0), normalized, clamp-to-edge border (Zubatov & Shcherbakov,
// 2.1.3 and 3.2). Methods: filters/window_methods.h; shaders: shaders/filters/tent/.
#include "filters/family.h"

namespace filterlab::filters::tent {

const Family& family();

// The kernel's normalized weights along one axis, a(i) = A - B|i| (tent_window.glsl): for the rank-2
// tent A = k / 2S and B = b / S, S the 2D kernel's sum; for the separable one A = k / T and B = b / T,
// T the 1D sum, and a clipped at 0, so `support` is the largest |i| <= r where a(i) > 0.
struct TentWeights {
  bool rank2 = true;
  double a = 0, b = 0;
  int support = 0;
};
TentWeights tent_weights(const ParamValues& v);

}  // namespace filterlab::filters::tent
