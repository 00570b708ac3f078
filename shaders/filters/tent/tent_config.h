// The tent family's contracts (renderer/filters/tent and the shaders beside this file).
#ifndef FILTERLAB_TENT_CONFIG_H
#define FILTERLAB_TENT_CONFIG_H
#include "filters/common/window_config.h"

// Specialization constants after the radius: the kernel, normalized (renderer/filters/tent).
#define TENT_RANK2_ID (WINDOW_FAMILY_CONSTANT + 0)  // 1: g = k - b(|i| + |j|) (6); 0: separable (5)
#define TENT_A_ID (WINDOW_FAMILY_CONSTANT + 1)      // float A and B: see tent_window.glsl
#define TENT_B_ID (WINDOW_FAMILY_CONSTANT + 2)

#endif  // FILTERLAB_TENT_CONFIG_H
