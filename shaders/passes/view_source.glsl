#ifndef VIEW_SOURCE_GLSL
#define VIEW_SOURCE_GLSL
// What every view shader binds first: the image shown, read with texelFetch at mip 0, in 16x16
// workgroups. Apart from view_common.glsl so that the depth range step (view_depth_range.comp),
// which writes no view and takes no push constants, declares nothing else at binding 1.
layout(local_size_x = 16, local_size_y = 16) in;

layout(set = 0, binding = 0) uniform sampler2D source;

#endif
