// The bilateral family's contracts (renderer/filters/bilateral and the shaders beside this file).
#ifndef FILTERLAB_BILATERAL_CONFIG_H
#define FILTERLAB_BILATERAL_CONFIG_H
#include "filters/common/window_config.h"

// Specialization constants after the radius (floats): log2(e) / (2 sigma_d^2) and
// log2(e) / (2 sigma_r^2), so that a weight is one exp2.
#define BILATERAL_SPATIAL_ID (WINDOW_FAMILY_CONSTANT + 0)
#define BILATERAL_RANGE_ID (WINDOW_FAMILY_CONSTANT + 1)

#endif  // FILTERLAB_BILATERAL_CONFIG_H
