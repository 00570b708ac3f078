#version 460
// convolve fft.vkfft's own passes around VkFFT's transforms (renderer/filters/convolve/fft.cpp), on
// planes of floats laid out as third_party/vkfft/fft_plan.h says, one plane per channel:
//   pad       the image into the planes at (offset_x, offset_y), its edge texels repeated over the
//             rest of the transform: inside the image, the transform's circular convolution is then
//             the clamp-to-edge linear one;
//   multiply  each plane's spectrum by the kernel's (its one plane, or the matching one);
//   crop      the image's part of the planes back into an image;
//   spectrum  the kernel's spectrum to look at: its magnitude per channel on a log scale (0 at 1e-4,
//             1 at 1, the sum of a normalized kernel), the zero frequency in the middle, the
//             transform's frequencies stretched over the image.
//! variant pad PAD=1 OUTPUT_FORMAT=rgba32f
//! variant spectrum SPECTRUM=1 OUTPUT_FORMAT=rgba16f
//! variant multiply MULTIPLY=1 OUTPUT_FORMAT=rgba32f
//! variant crop.fp16 CROP=1 OUTPUT_FORMAT=rgba16f
//! variant crop.fp32 CROP=1 OUTPUT_FORMAT=rgba32f
#extension GL_GOOGLE_include_directive : require
#include "filters/convolve/convolve_config.h"

layout(local_size_x = CONVOLVE_GROUP, local_size_y = CONVOLVE_GROUP) in;
layout(push_constant) uniform Push {
  FftPush push;
};

#if defined(SPECTRUM)
layout(set = 0, binding = BINDING_CONVOLVE_KERNEL_SPECTRUM, std430) readonly buffer KernelSpectrum {
  vec2 kernel_spectrum[];
};
#elif defined(MULTIPLY)
layout(set = 0, binding = BINDING_FAMILY_DATA, std430) buffer Planes {
  vec2 spectrum[];
};
layout(set = 0, binding = BINDING_CONVOLVE_KERNEL_SPECTRUM, std430) readonly buffer KernelSpectrum {
  vec2 kernel_spectrum[];
};
#elif defined(PAD)
layout(set = 0, binding = BINDING_FAMILY_DATA, std430) writeonly buffer Planes {
  vec2 plane_pairs[];  // rows and planes are an even number of floats long
};
#else
layout(set = 0, binding = BINDING_FAMILY_DATA, std430) buffer Planes {
  float planes[];
};
#endif
#if defined(PAD)
layout(set = 0, binding = BINDING_SOURCE) uniform sampler2D source;
#elif defined(CROP) || defined(SPECTRUM)
layout(set = 0, binding = BINDING_DESTINATION, OUTPUT_FORMAT) uniform writeonly image2D destination;
#endif

void main() {
  const ivec2 p = ivec2(gl_GlobalInvocationID.xy);
#if defined(PAD)
  // A thread two neighbouring values of a row (the transform's width is even), so that each plane's
  // store is 8 bytes and a row of a warp's is 128.
  const ivec2 q = ivec2(2 * p.x, p.y);
  if (q.x >= push.fft_width || q.y >= push.fft_height) return;
  const ivec2 origin = ivec2(push.offset_x, push.offset_y), last = ivec2(push.width, push.height) - 1;
  const vec4 a = texelFetch(source, clamp(q - origin, ivec2(0), last), 0);
  const vec4 b = texelFetch(source, clamp(q + ivec2(1, 0) - origin, ivec2(0), last), 0);
  const uint i = (uint(q.y) * push.row_floats + uint(q.x)) / 2u, plane = push.plane_floats / 2u;
  for (uint c = 0u; c < 4u; ++c) plane_pairs[c * plane + i] = vec2(a[c], b[c]);
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
#elif defined(SPECTRUM)
  if (p.x >= push.width || p.y >= push.height) return;
  // Frequency (u, v) in [-N/2, N/2); the real transform stores u >= 0, and K(-u, -v) is K(u, v)'s
  // conjugate, of the same magnitude.
  ivec2 f = ivec2(floor((vec2(p) + 0.5) / vec2(push.width, push.height) * vec2(push.fft_width, push.fft_height))) -
            ivec2(push.fft_width, push.fft_height) / 2;
  if (f.x < 0) f = -f;
  f.y = (f.y % push.fft_height + push.fft_height) % push.fft_height;
  const uint i = uint(f.y) * (push.row_floats / 2u) + uint(f.x), kernel_plane = push.kernel_plane_floats / 2u;
  vec4 v = vec4(1.0);
  for (uint c = 0u; c < 3u; ++c) v[c] = clamp(log(length(kernel_spectrum[c * kernel_plane + i])) / log(10.0) / 4.0 + 1.0, 0.0, 1.0);
  imageStore(destination, p, v);
#else
  if (p.x >= push.width || p.y >= push.height) return;
  const uint i = uint(p.y + push.offset_y) * push.row_floats + uint(p.x + push.offset_x);
  vec4 v;
  for (uint c = 0u; c < 4u; ++c) v[c] = planes[c * push.plane_floats + i];
  imageStore(destination, p, v);
#endif
}
