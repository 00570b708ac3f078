#version 460
// convolve fft.vkfft's own passes around VkFFT's transforms (renderer/filters/convolve/fft.cpp), on
// planes of floats laid out as third_party/vkfft/fft_plan.h says, one plane per channel:
//   pad       the image into the planes at (offset_x, offset_y), its edge texels repeated over the
//             rest of the transform: inside the image, the transform's circular convolution is then
//             the clamp-to-edge linear one;
//   multiply  each plane's spectrum by the kernel's (its one plane, or the matching one);
//   crop      the image's part of the planes back into an image.
//! variant pad PAD=1 OUTPUT_FORMAT=rgba32f
//! variant multiply MULTIPLY=1 OUTPUT_FORMAT=rgba32f
//! variant crop.fp16 CROP=1 OUTPUT_FORMAT=rgba16f
//! variant crop.fp32 CROP=1 OUTPUT_FORMAT=rgba32f
#extension GL_GOOGLE_include_directive : require
#include "filters/convolve/convolve_config.h"

layout(local_size_x = CONVOLVE_GROUP, local_size_y = CONVOLVE_GROUP) in;
layout(push_constant) uniform Push {
  FftPush push;
};

#if defined(MULTIPLY)
layout(set = 0, binding = BINDING_FAMILY_DATA, std430) buffer Planes {
  vec2 spectrum[];
};
layout(set = 0, binding = BINDING_CONVOLVE_KERNEL_SPECTRUM, std430) readonly buffer KernelSpectrum {
  vec2 kernel_spectrum[];
};
#else
layout(set = 0, binding = BINDING_FAMILY_DATA, std430) buffer Planes {
  float planes[];
};
#endif
#if defined(PAD)
layout(set = 0, binding = BINDING_SOURCE) uniform sampler2D source;
#elif defined(CROP)
layout(set = 0, binding = BINDING_DESTINATION, OUTPUT_FORMAT) uniform writeonly image2D destination;
#endif

void main() {
  const ivec2 p = ivec2(gl_GlobalInvocationID.xy);
#if defined(PAD)
  if (p.x >= push.fft_width || p.y >= push.fft_height) return;
  const ivec2 at = clamp(p - ivec2(push.offset_x, push.offset_y), ivec2(0), ivec2(push.width, push.height) - 1);
  const vec4 v = texelFetch(source, at, 0);
  const uint i = uint(p.y) * push.row_floats + uint(p.x);
  for (uint c = 0u; c < 4u; ++c) planes[c * push.plane_floats + i] = v[c];
#elif defined(MULTIPLY)
  // A thread a complex value of each plane: row_floats / 2 of them a row.
  const uint columns = push.row_floats / 2u;
  if (uint(p.x) >= columns || p.y >= push.fft_height) return;
  const uint i = uint(p.y) * columns + uint(p.x), plane = push.plane_floats / 2u;
  const uint kernel_plane = push.kernel_plane_floats / 2u;
  for (uint c = 0u; c < 4u; ++c) {
    const vec2 a = spectrum[c * plane + i], b = kernel_spectrum[c * kernel_plane + i];
    spectrum[c * plane + i] = vec2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
  }
#else
  if (p.x >= push.width || p.y >= push.height) return;
  const uint i = uint(p.y + push.offset_y) * push.row_floats + uint(p.x + push.offset_x);
  vec4 v;
  for (uint c = 0u; c < 4u; ++c) v[c] = planes[c * push.plane_floats + i];
  imageStore(destination, p, v);
#endif
}
