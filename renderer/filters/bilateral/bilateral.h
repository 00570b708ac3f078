#pragma once
// The bilateral family: kernel (4) of Zubatov & Shcherbakov, a spatial Gaussian times a range
// Gaussian of the RGB distance to the centre texel, alpha filtered with the same weights,
// normalized by the sum of the weights, clamp-to-edge border. Methods: filters/window_methods.h;
// shaders: shaders/filters/bilateral/.
#include "filters/family.h"

namespace filterlab::filters::bilateral {

const Family& family();

}  // namespace filterlab::filters::bilateral
