#pragma once
// The fxaa family: FXAA 3.11's quality algorithm (Lottes 2011), the spatial anti-aliasing TAA is
// compared against (`filterlab evaluate`). Its decisions read a perceptual luma of a tonemapped
// estimate of the linear HDR colour, and it blends the linear colour. Shaders: shaders/filters/fxaa/.
#include "filters/family.h"

namespace filterlab::filters::fxaa {

const Family& family();

}  // namespace filterlab::filters::fxaa
