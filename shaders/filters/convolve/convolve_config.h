// The convolve family's contracts (renderer/filters/convolve and the shaders beside this file).
#ifndef FILTERLAB_CONVOLVE_CONFIG_H
#define FILTERLAB_CONVOLVE_CONFIG_H
#include "config.h"

// Kernels are 1..CONVOLVE_MAX_KERNEL texels a side; generated ones are 2 radius + 1.
#define CONVOLVE_MAX_KERNEL 255
#define CONVOLVE_MAX_RADIUS 127
// direct.separable sums at most this many separable terms (passes of two).
#define CONVOLVE_MAX_RANK 32

#define CONVOLVE_GROUP 16  // threads a side of the per-pixel passes

// fft.vkfft's planes (four, padded) must fit one buffer VkFFT indexes with 32 bits, which is also the
// largest storage buffer range most devices offer: a 16K image is refused, 8K with any kernel fits.
#define CONVOLVE_MAX_TRANSFORM_BYTES 4294967295.0

// direct.full2d: a thread computes CONVOLVE_FULL2D_OUTPUTS neighbouring outputs of a row, so a group
// covers (16 * CONVOLVE_FULL2D_OUTPUTS) x 16; the kernel is walked in chunks of CONVOLVE_FULL2D_ROWS
// rows by CONVOLVE_FULL2D_COLS columns, each with the input it needs staged in shared memory.
#define CONVOLVE_FULL2D_OUTPUTS 4
#define CONVOLVE_FULL2D_ROWS 4
#define CONVOLVE_FULL2D_COLS 16

// Specialization constants.
#define CONVOLVE_KERNEL_WIDTH_ID 0
#define CONVOLVE_KERNEL_HEIGHT_ID 1
#define CONVOLVE_ACCUMULATE_ID 2  // direct.separable's columns pass: adds the previous terms' sum

// direct.separable reads the previous terms' sum here; fft.vkfft binds the kernel's spectrum here.
#define BINDING_CONVOLVE_SUM BINDING_FAMILY_DATA_2
#define BINDING_CONVOLVE_KERNEL_SPECTRUM BINDING_FAMILY_DATA_2

#ifdef __cplusplus
namespace filterlab::shader {
#endif

// direct.separable: the term this pass applies (its weights in the family buffer: per term, the
// row vector's CONVOLVE_MAX_KERNEL vec4s, then the column vector's).
struct SeparablePush {
  uint term;
};

// fft.vkfft's own passes over the padded planes (vkfft/fft_plan.h's layout: plane after plane,
// rows of row_floats floats): the image at (offset_x, offset_y) in a transform of fft_width x
// fft_height, its edges repeated around it.
struct FftPush {
  int width, height;  // the image
  int fft_width, fft_height;
  int offset_x, offset_y;
  uint row_floats, plane_floats;
  uint kernel_plane_floats;  // the kernel spectrum's planes: 0 where one serves every channel
};

#ifdef __cplusplus
}  // namespace filterlab::shader
#endif
#endif
