// The window methods' contracts (renderer/filters/window_methods.h and window.glsl beside this
// file): the drivers every window family (a filter over the (2r+1)^2 neighbourhood) shares.
#ifndef FILTERLAB_WINDOW_CONFIG_H
#define FILTERLAB_WINDOW_CONFIG_H
#include "config.h"

// A window filter's second output image (variance writes two).
#define BINDING_DESTINATION_2 BINDING_FAMILY_DATA_2

// comp.full2d_shared: 16 x 16 threads, one output each, from a (16 + 2r)^2 tile of vec4.
#define WINDOW_SHARED_GROUP 16
// The quad methods' compute workgroup: WINDOW_QUAD_GROUP x WINDOW_QUAD_GROUP pixels.
#define WINDOW_QUAD_GROUP 8
// comp.separable_shared: 32 x 8 threads own a tile 32 outputs wide and 8K tall (K outputs down a
// column per thread, specialization constant WINDOW_SEPARABLE_K_ID); a thread's horizontal task
// is a run of WINDOW_SEPARABLE_RUN adjacent row sums.
#define WINDOW_SEPARABLE_GROUP_X 32
#define WINDOW_SEPARABLE_GROUP_Y 8
#define WINDOW_SEPARABLE_RUN 4
#define WINDOW_SEPARABLE_MAX_K 4

// Specialization constants: 0 is the radius; a family numbers its own from WINDOW_FAMILY_CONSTANT.
#define WINDOW_SEPARABLE_K_ID 15
#define WINDOW_FAMILY_CONSTANT 1

#endif  // FILTERLAB_WINDOW_CONFIG_H
