#version 460
// One load and one store per pixel: the memory-bound floor for RGBA16F filter passes.
layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = 0, rgba16f) uniform readonly image2D source;
layout(set = 0, binding = 1, rgba16f) uniform writeonly image2D destination;

void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (any(greaterThanEqual(p, imageSize(destination)))) return;
  imageStore(destination, p, imageLoad(source, p));
}
