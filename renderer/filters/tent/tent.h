#pragma once
// The tent family: the paper's rank-2 tent (6), g(i, j) = k - b(|i| + |j|), and the separable tent
// (5), max(k - b|i|, 0) max(k - b|j|, 0), normalized, clamp-to-edge border (Zubatov & Shcherbakov,
// 2.1.3 and 3.2). Methods: filters/window_methods.h; shaders: shaders/filters/tent/.
#include "filters/family.h"

namespace filterlab::filters::tent {

const Family& family();

}  // namespace filterlab::filters::tent
