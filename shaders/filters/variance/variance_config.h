// The variance family's contracts (renderer/filters/variance and the shaders beside this file).
#ifndef FILTERLAB_VARIANCE_CONFIG_H
#define FILTERLAB_VARIANCE_CONFIG_H
#include "filters/common/window_statistics_config.h"

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

// comp.stream (variance_stream.comp): a group of VARIANCE_STREAM_THREADS threads walks down a strip
// VARIANCE_STREAM_COLS outputs wide and VARIANCE_STREAM_ROWS tall, VARIANCE_STREAM_BATCH rows at a time.
#define VARIANCE_STREAM_COLS 64
#define VARIANCE_STREAM_THREADS 128
#define VARIANCE_STREAM_ROWS 32
#define VARIANCE_STREAM_BATCH 8

// comp.running (variance_running.comp): a group of COLS + 2r threads (rounded up to a multiple of 32)
// walks down a strip VARIANCE_RUNNING_COLS outputs wide; its rows and its thread count are
// specialization constants (the ids below, clear of the statistics' ids).
#define VARIANCE_RUNNING_COLS 128
#define VARIANCE_RUNNING_MAX_RADIUS 32
#define VARIANCE_RUNNING_THREADS_ID (WINDOW_FAMILY_CONSTANT + 10)
#define VARIANCE_RUNNING_ROWS_ID (WINDOW_FAMILY_CONSTANT + 11)

#endif  // FILTERLAB_VARIANCE_CONFIG_H
