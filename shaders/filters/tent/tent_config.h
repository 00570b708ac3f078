// The tent family's contracts (renderer/filters/tent and the shaders beside this file).
#ifndef FILTERLAB_TENT_CONFIG_H
#define FILTERLAB_TENT_CONFIG_H
#include "filters/common/window_config.h"

// Specialization constants after the radius: the kernel, normalized (renderer/filters/tent).
#define TENT_RANK2_ID (WINDOW_FAMILY_CONSTANT + 0)  // 1: g = k - b(|i| + |j|) (6); 0: separable (5)
#define TENT_A_ID (WINDOW_FAMILY_CONSTANT + 1)      // float A and B: see tent_window.glsl
#define TENT_B_ID (WINDOW_FAMILY_CONSTANT + 2)

// comp.running (tent_running.comp): a group of TENT_RUNNING_COLS + 2r threads (rounded up to a
// multiple of 32) walks down a strip TENT_RUNNING_COLS outputs wide; its rows and its thread count
// are specialization constants.
#define TENT_RUNNING_COLS 128
#define TENT_RUNNING_MAX_RADIUS 32
#define TENT_RUNNING_THREADS_ID (WINDOW_FAMILY_CONSTANT + 3)
#define TENT_RUNNING_ROWS_ID (WINDOW_FAMILY_CONSTANT + 4)

#endif  // FILTERLAB_TENT_CONFIG_H
