#pragma once
// The convolve family: an arbitrary 2D kernel (a file, or generated), applied directly or through the
// Fourier domain (VkFFT). docs/families/convolve.md.
#include "filters/family.h"

namespace filterlab::filters::convolve {

const Family& family();

}  // namespace filterlab::filters::convolve
