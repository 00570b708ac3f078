#pragma once
// The fxaa family's definition in double (shaders/filters/fxaa/fxaa.glsl, step for step), with the
// margin of every hard decision it takes: FXAA compares lumas against thresholds and stops its
// search where one is crossed, so a pixel whose luma lies within rounding of a threshold may be
// decided the other way by the GPU's float arithmetic, legitimately.
#include "common/reference.h"
#include "io/image_io.h"

#include <vector>

namespace filterlab::filters::fxaa {

// The parameters as the shader has them: rounded to float (the same numbers on both sides make the
// contrast test's margins the GPU's rounding alone).
struct Settings {
  double subpix = 0.75, edge_threshold = 0.166, edge_threshold_min = 0.0833;
};

// How near its level's half a luma (in [0, 1]) must lie for the GPU to round it the other way: its
// float arithmetic (the dot product, the division, the square root) is within a few float ulps,
// 3e-7, of the double.
constexpr double kLumaEpsilon = 1e-6;

struct Reference {
  common::ImageD image;
  // Per pixel, row-major: the smallest |quantity - threshold| of the decisions taken there, in luma
  // units: the contrast test's, and where a luma the GPU may round to the other level changes the
  // pixel's value, that luma's distance to the half (infinity where no decision could go either
  // way).
  std::vector<double> margins;
};

// Clamp-to-edge border, the first min(channels, 4) channels; the luma reads the first three (an
// image of fewer reads zeros for the rest).
Reference reference(const io::ImageF& input, const Settings& settings);

// The luma every decision reads, before its rounding to 1 / FXAA_LUMA_STEPS: sqrt(L / (1 + L)) of the
// Rec. 709 luminance L (clamped at 0).
double unrounded_luma(double r, double g, double b);

}  // namespace filterlab::filters::fxaa
