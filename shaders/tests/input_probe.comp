#version 460
// tests/gpu/filter_inputs_test.cpp's probe family: reads every input a filter may read beyond the
// previous step's image, and writes what it saw: x counts the frames since its history was last
// invalid (its own previous output's x + 1), y the depth, z the motion's x, w the frame index.
#extension GL_GOOGLE_include_directive : require
#include "config.h"

layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = BINDING_SOURCE) uniform sampler2D color;
layout(set = 0, binding = BINDING_DESTINATION, rgba32f) uniform writeonly image2D destination;
layout(set = 0, binding = BINDING_DEPTH) uniform sampler2D depth;
layout(set = 0, binding = BINDING_MOTION) uniform sampler2D motion;
layout(set = 0, binding = BINDING_HISTORY) uniform sampler2D history;
layout(push_constant) uniform Push { FilterCamera camera; };

void main() {
  const ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (any(greaterThanEqual(p, imageSize(destination)))) return;
  const float frames = camera.history_invalid != 0u ? 1.0 : texelFetch(history, p, 0).x + 1.0;
  imageStore(destination, p,
             vec4(frames, texelFetch(depth, p, 0).x, texelFetch(motion, p, 0).x, float(camera.frame)));
}
