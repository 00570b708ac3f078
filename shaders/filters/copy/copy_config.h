// The copy family's contracts (renderer/filters/copy, copy.comp): C++ and GLSL at once, as
// shaders/config.h.
#ifndef FILTERLAB_COPY_CONFIG_H
#define FILTERLAB_COPY_CONFIG_H
#include "config.h"

// Specialization constant: pixels per thread.
#define COPY_PIXELS_ID 0
#define COPY_GROUP_X 16
#define COPY_GROUP_Y 16

// comp.fetch_x4_two_images: its second image.
#define BINDING_COPY_SECOND BINDING_FAMILY_DATA

#endif  // FILTERLAB_COPY_CONFIG_H
