// One fetch and one store per pixel: the memory-bound floor for filter passes. The includer
// defines OUTPUT_FORMAT (the storage image format qualifier).
layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = 0) uniform sampler2D source;
layout(set = 0, binding = 1, OUTPUT_FORMAT) uniform writeonly image2D destination;

void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (any(greaterThanEqual(p, imageSize(destination)))) return;
  imageStore(destination, p, texelFetch(source, p, 0));
}
