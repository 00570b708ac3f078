#version 460
// The fxaa family's compute method (fxaa.glsl): one pixel a thread.
//! variant fp16 OUTPUT_FORMAT=rgba16f
//! variant fp32 OUTPUT_FORMAT=rgba32f
#extension GL_GOOGLE_include_directive : require
#include "filters/fxaa/fxaa.glsl"

layout(local_size_x = FXAA_GROUP, local_size_y = FXAA_GROUP) in;
layout(set = 0, binding = BINDING_DESTINATION, OUTPUT_FORMAT) uniform writeonly image2D destination;

void main() {
  const ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (any(greaterThanEqual(p, imageSize(destination)))) return;
  imageStore(destination, p, fxaa(p));
}
