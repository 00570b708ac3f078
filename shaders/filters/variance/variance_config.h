// The variance family's contracts (renderer/filters/variance and the shaders beside this file).
#ifndef FILTERLAB_VARIANCE_CONFIG_H
#define FILTERLAB_VARIANCE_CONFIG_H
#include "filters/common/window_statistics_config.h"

// The statistics' specialization constants and values are window_statistics_config.h's.

// comp.stream (variance_stream.comp): a group of VARIANCE_STREAM_THREADS threads walks down a strip
// VARIANCE_STREAM_COLS outputs wide and VARIANCE_STREAM_ROWS tall, VARIANCE_STREAM_BATCH rows at a time.
#define VARIANCE_STREAM_COLS 64
#define VARIANCE_STREAM_THREADS 128
#define VARIANCE_STREAM_ROWS 32
#define VARIANCE_STREAM_BATCH 8

#endif  // FILTERLAB_VARIANCE_CONFIG_H
