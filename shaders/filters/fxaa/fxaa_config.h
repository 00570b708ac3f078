// The fxaa family's contracts (renderer/filters/fxaa, fxaa.glsl beside this file): C++ and GLSL at
// once, as shaders/config.h. The CPU reference (renderer/filters/fxaa/reference.cpp) reads the same
// step table and luma weights, so that the GPU and the reference cannot define two filters.
#ifndef FILTERLAB_FXAA_CONFIG_H
#define FILTERLAB_FXAA_CONFIG_H
#include "config.h"

// Specialization constants (floats): the step's parameters.
#define FXAA_SUBPIX_ID 0
#define FXAA_EDGE_THRESHOLD_ID 1
#define FXAA_EDGE_THRESHOLD_MIN_ID 2

// comp.fxaa: FXAA_GROUP x FXAA_GROUP threads, one pixel each.
#define FXAA_GROUP 16

// The end-of-edge search: pixels walked along the edge at each step, from the pixel outwards, in each
// direction (Lottes' finest preset, 1 1 1 1 1 1.5 2 2 2 2 4 8, with its one half step made whole:
// every sample then lies on a pixel row or column, and the search reaches 25 pixels each way).
#define FXAA_STEP_COUNT 11
#define FXAA_STEP_LIST 1, 1, 1, 1, 1, 2, 2, 2, 2, 4, 8

// Rec. 709 luminance: the luma's first step (fxaa.glsl's fxaa_luma).
#define FXAA_LUMA_R 0.2126
#define FXAA_LUMA_G 0.7152
#define FXAA_LUMA_B 0.0722
// The luma's levels in [0, 1]: 256, a power of two, so that sums and halves of a few lumas are exact in
// float (FXAA 3.11 reads an 8-bit luma).
#define FXAA_LUMA_STEPS 256.0

#endif  // FILTERLAB_FXAA_CONFIG_H
