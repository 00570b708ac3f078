#pragma once
// Double-precision CPU models of bigblur's pyramid methods, the same definitions as their shaders
// (shaders/filters/bigblur/chain_down.comp, chain_up.comp, mip_poisson.comp): what
// tests/gpu/bigblur_test.cpp holds the GPU to. The exact Gaussian's reference is the family's
// (common::reference_blur).
#include "common/reference.h"
#include "filters/bigblur/design.h"

namespace filterlab::filters::bigblur::model {

enum class Pass { Box, Cod13, DualDown, Tent, DualUp };

// One pyramid pass: a down pass halves the size (rounded up), an up pass doubles it to `size`.
common::ImageD pyramid_pass(const common::ImageD& source, Pass pass, uint32_t width, uint32_t height);

// Levels 0..count by the 2x2 box (level 0 is the input).
std::vector<common::ImageD> box_levels(const common::ImageD& input, int count);

// The chains and the resolve, end to end.
common::ImageD chain_blur(const common::ImageD& input, Chain chain, int levels);
// rotation: BIGBLUR_ROTATION_NONE or _IGN (frame 0), drawn per cell x cell pixels.
common::ImageD mip_poisson(const common::ImageD& input, const PoissonDesign& design, uint32_t rotation,
                           int cell = 1);

common::ImageD to_double(const io::ImageF& image);

}  // namespace filterlab::filters::bigblur::model
