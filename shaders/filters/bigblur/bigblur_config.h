// The bigblur family's contracts (renderer/filters/bigblur and the shaders beside this file).
#ifndef FILTERLAB_BIGBLUR_CONFIG_H
#define FILTERLAB_BIGBLUR_CONFIG_H
#include "config.h"

// The target: a Gaussian of standard deviation sigma, BIGBLUR_MIN_SIGMA..BIGBLUR_MAX_SIGMA pixels.
// The exact method truncates it at r = ceil(4 sigma), up to BIGBLUR_MAX_RADIUS.
#define BIGBLUR_MIN_SIGMA 1
#define BIGBLUR_MAX_SIGMA 256
#define BIGBLUR_MAX_RADIUS 1024

// Compute passes over an image: BIGBLUR_GROUP x BIGBLUR_GROUP threads; the recursive passes run
// one thread a line, BIGBLUR_LINE_GROUP lines a group.
#define BIGBLUR_GROUP 16
#define BIGBLUR_LINE_GROUP 64
// The dual filter's down passes make this many outputs a thread, down a column (chain_down.comp):
// neighbouring outputs share their corner taps. In fp32 one: four (and eight) measured much slower
// there (docs/families/bigblur.md).
#define BIGBLUR_DUAL_DOWN_ROWS_HALF 4
#define BIGBLUR_DUAL_DOWN_ROWS_FLOAT 1
// The same for the 13-tap chain's down passes, whose outer taps are shared by three outputs in a
// column and inner ones by two.
#define BIGBLUR_COD13_DOWN_ROWS_HALF 4
#define BIGBLUR_COD13_DOWN_ROWS_FLOAT 4
// comp.recursive cuts each line into blocks of this many texels, a thread each (recursive.comp).
// Shorter blocks were slower (a longer scan across them), longer ones missed the 1e-3 bound at sigma
// 256 (the block's carry matrix compounds over fewer, longer steps): docs/families/bigblur-tried.md.
#define BIGBLUR_BLOCK 64

// comp.mip_poisson: at most BIGBLUR_MAX_SAMPLES disk points (the family's buffer: vec2 each, in the
// unit disk), and the rotation of the disk per pixel.
#define BIGBLUR_MAX_SAMPLES 64
#define BIGBLUR_ROTATION_IGN 0    // interleaved gradient noise (Jimenez 2014)
#define BIGBLUR_ROTATION_NONE 1   // the same disk everywhere: banding
#define BIGBLUR_ROTATION_WHITE 2  // a hash per pixel: white noise, to compare

// comp.mip_poisson samples two levels of the pyramid: BINDING_SOURCE the finer, this the coarser.
#define BINDING_BIGBLUR_COARSE BINDING_FAMILY_DATA_2
// comp.mip_poisson_temporal writes its accumulation (RGB, and in alpha the frames it holds) here, and
// reads last frame's at BINDING_HISTORY.
#define BINDING_BIGBLUR_ACCUMULATION BINDING_FAMILY_DATA_3
// It holds at most this many frames: beyond, each new frame weighs 1/BIGBLUR_MAX_FRAMES.
#define BIGBLUR_MAX_FRAMES 64

// Specialization constants of the one-dimensional passes (exact, recursive), and the disk's points.
#define BIGBLUR_RADIUS_ID 0
#define BIGBLUR_VERTICAL_ID 1
#define BIGBLUR_SAMPLES_ID 2

#ifdef __cplusplus
namespace filterlab::shader {
#endif

// comp.recursive: Deriche's fourth-order fit of the Gaussian as two second-order sections, each run
// causally (forward) and anticausally (backward) over the line, the four outputs summed.
struct RecursiveCoefficients {
  float causal[8];      // section s at 4s: n0, n1 (the input's taps), d1, d2 (the output's)
  float anticausal[8];  // section s at 4s: m1, m2 (the input's taps ahead), the causal and the
                        // anticausal gain of a constant input (clamp to edge before the first texel)
  float inv_scale;      // 1 / the kernel's sum: the output of a constant is that constant
  float block_carry[8];  // section s at 4s: its zero-input recursion through BIGBLUR_BLOCK steps, a
                         // column-major 2x2 matrix on the state as (y[n-1], y[n-1] - y[n-2]) (the two
                         // are nearly equal where the poles are near 1: this form does not cancel),
                         // computed in double
};

// comp.mip_poisson's resolve.
struct PoissonPush {
  float lod;      // the level whose texels cover one sample's share of the disk (level 0: the input)
  uint rotation;  // BIGBLUR_ROTATION_*
  uint frame;     // the noise's frame (its offset is 5.588238 (frame mod 64))
  uint history_invalid;  // comp.mip_poisson_temporal: 1 on the first frame, a resize or a camera cut
  uint cell;             // the rotation is drawn per cell x cell pixels (the noise at p / cell)
};

#ifdef __cplusplus
}  // namespace filterlab::shader
#endif

#endif  // FILTERLAB_BIGBLUR_CONFIG_H
