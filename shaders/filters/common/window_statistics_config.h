// The window statistics' contracts (window_statistics.glsl beside this file): per channel, over a
// pixel's window, the mean and standard deviation or the minimum and maximum, in RGB or YCoCg, over
// a square or plus-shaped window. The variance family writes them; TAA's resolve clips its history
// to them (renderer/filters/variance, renderer/filters/taa).
#ifndef FILTERLAB_WINDOW_STATISTICS_CONFIG_H
#define FILTERLAB_WINDOW_STATISTICS_CONFIG_H
#include "filters/common/window_config.h"

// Specialization constants after the radius.
#define WINDOW_STATS_ID (WINDOW_FAMILY_CONSTANT + 0)  // WINDOW_STATS_MOMENTS or WINDOW_STATS_RANGE
#define WINDOW_SHAPE_ID (WINDOW_FAMILY_CONSTANT + 1)  // WINDOW_SHAPE_SQUARE or WINDOW_SHAPE_PLUS
#define WINDOW_SPACE_ID (WINDOW_FAMILY_CONSTANT + 2)  // WINDOW_SPACE_RGB or WINDOW_SPACE_YCOCG
#define WINDOW_STATS_MOMENTS 0                        // writes the mean, then the standard deviation
#define WINDOW_STATS_RANGE 1                          // writes the minimum, then the maximum
#define WINDOW_SHAPE_SQUARE 0                         // the (2r+1)^2 window
#define WINDOW_SHAPE_PLUS 1                           // its middle row and column: 4r+1 texels
#define WINDOW_SPACE_RGB 0
#define WINDOW_SPACE_YCOCG 1  // Y = R/4 + G/2 + B/4, Co = R/2 - B/2, Cg = -R/4 + G/2 - B/4; alpha kept

#endif  // FILTERLAB_WINDOW_STATISTICS_CONFIG_H
