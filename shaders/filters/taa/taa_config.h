// The taa family's contracts (renderer/filters/taa and the shaders beside this file).
#ifndef FILTERLAB_TAA_CONFIG_H
#define FILTERLAB_TAA_CONFIG_H
#include "filters/common/window_statistics_config.h"

// Specialization constants after the window statistics' (ids 1-3, window_statistics_config.h).
#define TAA_RECTIFY_ID (WINDOW_FAMILY_CONSTANT + 3)
#define TAA_HISTORY_FILTER_ID (WINDOW_FAMILY_CONSTANT + 4)
#define TAA_GAMMA_ID (WINDOW_FAMILY_CONSTANT + 5)         // float
#define TAA_FEEDBACK_MIN_ID (WINDOW_FAMILY_CONSTANT + 6)  // float
#define TAA_FEEDBACK_MAX_ID (WINDOW_FAMILY_CONSTANT + 7)  // float

#define TAA_NONE 0      // the reprojected history as it is
#define TAA_CLAMP 1     // clamped to the neighbourhood's min/max box
#define TAA_CLIP 2      // clipped toward the box's centre
#define TAA_VARIANCE 3  // clipped toward the mean, to mean +- gamma stddev (Salvi)
#define TAA_BILINEAR 0
#define TAA_CATMULL_ROM 1   // 9 bilinear taps
#define TAA_CATMULL_ROM5 2  // 5: the corners left out

// views=on: the compute resolve's two more images (the history as blended, the rejection mask).
#define BINDING_TAA_HISTORY_VIEW BINDING_FAMILY_DATA
#define BINDING_TAA_MASK_VIEW BINDING_FAMILY_DATA_2

// The compute resolve's workgroup (the quad methods' too): TAA_GROUP x TAA_GROUP pixels.
#define TAA_GROUP WINDOW_QUAD_GROUP
// comp.full2d_shared's: TAA_SHARED_GROUP^2 pixels, their colour and depth staged in shared memory.
#define TAA_SHARED_GROUP WINDOW_SHARED_GROUP

#endif  // FILTERLAB_TAA_CONFIG_H
