#pragma once
// The variance family: per channel, the mean (7) and standard deviation (8) of the window, or its
// minimum and maximum, over a square or plus-shaped window, in RGB or YCoCg: the statistics TAA's
// history rectification reads (Zubatov & Shcherbakov 2.1.4 and 3.3; Salvi 2016). Each step writes
// two images, <name>.mean and <name>.stddev (or <name>.min and <name>.max); `output` picks the one
// that continues the chain. Methods: filters/window_methods.h; shaders: shaders/filters/variance/,
// whose variance_window.glsl is the building block another filter's pass includes.
#include "filters/family.h"

namespace filterlab::filters::variance {

const Family& family();

}  // namespace filterlab::filters::variance
