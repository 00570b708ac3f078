#pragma once
// The bigblur family: one target, a Gaussian of standard deviation sigma up to 256 pixels, and the
// ways engines and papers approximate it at a cost that does not grow with sigma (Chapman,
// "Optimizing convolutions", Prefiltering; Jimenez 2014; Bjorge 2015; Deriche 1993), beside the
// exact Gaussian truncated at r = ceil(4 sigma). Methods: bigblur.cpp (exact, recursive) and
// pyramid.cpp (the pyramid methods); their designs: design.h; shaders: shaders/filters/bigblur/.
#include "filters/family.h"

namespace filterlab::filters::bigblur {

const Family& family();

}  // namespace filterlab::filters::bigblur
