#ifndef VIEW_SOURCE_GLSL
#define VIEW_SOURCE_GLSL
// What every view shader binds first: the image shown, read with texelFetch at mip 0, in 16x16
// workgroups. Apart from view_common.glsl so that the depth range step (view_depth_range.comp),
// which writes no view and takes no push constants, declares nothing else.
#include "passes/passes_config.h"
layout(local_size_x = VIEW_GROUP, local_size_y = VIEW_GROUP) in;

layout(set = 0, binding = BINDING_VIEW_SOURCE) uniform sampler2D source;

#endif
