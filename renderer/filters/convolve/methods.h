#pragma once
// The convolve family's methods, each in its own file (direct.cpp, fft.cpp), listed by convolve.cpp.
#include "filters/family.h"

namespace filterlab::filters::convolve {

std::vector<Method> direct_methods();  // direct.full2d, direct.separable
Method fft_method();                   // fft.vkfft

// direct.separable's bound on the residual the dropped terms leave (the `rank_error` parameter).
double rank_error(const ParamValues& params);

}  // namespace filterlab::filters::convolve
