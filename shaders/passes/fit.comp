#version 460
#extension GL_GOOGLE_include_directive : require
#include "config.h"
#include "passes/passes_config.h"
// A still image in place of the scene (run --image): at the frame's size, the image as stored;
// at another size, scaled to fit (aspect kept, bilinear), black bars around it.
layout(local_size_x = FIT_GROUP, local_size_y = FIT_GROUP) in;
layout(set = 0, binding = BINDING_SOURCE) uniform sampler2D image;
layout(set = 0, binding = BINDING_DESTINATION, rgba32f) uniform writeonly image2D frame;
layout(push_constant) uniform Push { FitPush pc; };

void main() {
  const ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (any(greaterThanEqual(p, imageSize(frame)))) return;
  if (pc.exact != 0u) {
    imageStore(frame, p, texelFetch(image, p, 0));
    return;
  }
  const vec2 size = vec2(textureSize(image, 0));
  const vec2 at = (vec2(p) + 0.5 - vec2(pc.offset_x, pc.offset_y)) / pc.scale;  // in image pixels
  const bool inside = all(greaterThanEqual(at, vec2(0.0))) && all(lessThan(at, size));
  imageStore(frame, p, inside ? textureLod(image, at / size, 0.0) : vec4(0.0, 0.0, 0.0, 1.0));
}
