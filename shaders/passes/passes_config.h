// The viewport's and the comparison's passes (renderer/passes/view_pass.cpp, compare_pass.cpp):
// their bindings, C++ and GLSL at once, as shaders/config.h is for the filters.
#ifndef FILTERLAB_PASSES_CONFIG_H
#define FILTERLAB_PASSES_CONFIG_H
#include "config.h"

// The views (view.comp, view_depth.comp) and the depth view's range step (view_depth_range.comp).
#define BINDING_VIEW_SOURCE 0  // sampler2D: the image shown, texelFetch at mip 0
#define BINDING_VIEW_OUTPUT 1  // rgba8 storage image
#define BINDING_VIEW_RANGE 2   // buffer: this frame's nearest and farthest depth (two order keys)
#define VIEW_GROUP 16          // 16 x 16 threads, a pixel each
#define VIEW_MODE_ID 0         // view.comp's specialization constant: the ViewKind

// The comparison: the reduction over 32 x 32 tiles (compare_reduce.comp), its finish
// (compare_finish.comp), and the display (compare_display_*.comp).
#define BINDING_COMPARE_A 0         // sampler2D
#define BINDING_COMPARE_B 1         // sampler2D
#define BINDING_COMPARE_PARTIALS 2  // buffer: a vec4 per tile
#define BINDING_COMPARE_RESULT 3    // buffer: the metrics (ResultGpu)
#define BINDING_COMPARE_DISPLAY 4   // storage image: the display
#define BINDING_COMPARE_FLIP 5      // sampler2D: the FLIP map the flip view shows (R32F)
#define BINDING_COMPARE_FLIP_HDR 6  // sampler2D: the same of the HDR pair (push constant flip_of_hdr)
#define COMPARE_TILE 32             // pixels per reduction workgroup side (16 x 16 threads, 2 x 2 each)
#define COMPARE_DISPLAY_GROUP 16
// SSIM (compare_ssim.comp): each 16 x 16 workgroup sums the SSIM of 16 x 16 window positions; the
// window is 11 x 11 (radius 5), as common::ssim (Wang et al. 2004).
#define COMPARE_SSIM_GROUP 16
#define COMPARE_SSIM_RADIUS 5

// FLIP (flip_rows.comp, flip_columns.comp, flip_reduce.comp; renderer/passes/flip_pass.h; the CPU
// definition is common/flip.h). Rows: a group of FLIP_ROW_GROUP threads takes that many pixels of
// one row of both images, turns them (and the filters' radius each side) into YCxCz and the
// achromatic channel in shared memory, and filters them along the row into two row-major buffers
// of vec4 per input (linear: the rows' stores and the columns' loads are whole cache lines): the
// colour (Y, Cx, and Cz by each of its CSF's two Gaussians) and the features' (the achromatic
// channel by G, G' and G''). Columns: FLIP_COLUMN_GROUP_X x FLIP_COLUMN_GROUP_Y threads,
// FLIP_COLUMN_ROWS pixels each (one above the other, sharing their loads), filter those down the column,
// turn them into L*a*b* and edge and point responses, and write the pixel's FLIP (the largest over
// the exposures so far for HDR-FLIP). Reduce: a FLIP_REDUCE_TILE square of the map per group into
// (sum, 0, 0, max), folded by compare_finish.comp.
#define FLIP_ROW_GROUP 256
#define FLIP_COLUMN_GROUP_X 32
#define FLIP_COLUMN_GROUP_Y 16
// Pixels a columns thread computes, one above the other: each row loaded serves them all, but more
// sums held cost residency; 2 measured fastest on the H200 of 1, 2, 4 and 8 (docs/flip.md).
#define FLIP_COLUMN_ROWS 2
#define FLIP_REDUCE_TILE 32
#define FLIP_RADIUS_ID 0  // specialization constant: the filters' radius (the CSF's and the features' larger)
#define FLIP_ACCUMULATE_ID 1             // specialization constant: 1 where an earlier exposure wrote the map
#define BINDING_FLIP_REFERENCE 0         // sampler2D
#define BINDING_FLIP_TEST 1              // sampler2D
#define BINDING_FLIP_KERNELS 2           // buffer: FlipKernelsGpu's taps, rows then columns, two vec4 a tap
#define BINDING_FLIP_REFERENCE_COLOUR \
  3  // buffer of vec4: Y, Cx, Cz (first Gaussian), Cz (second), along rows
#define BINDING_FLIP_REFERENCE_FEATURES \
  4  // buffer of vec4: the achromatic channel by G, G', G'' (w 0), along rows
#define BINDING_FLIP_TEST_COLOUR 5
#define BINDING_FLIP_TEST_FEATURES 6
#define BINDING_FLIP_MAP 7        // r32f storage image: FLIP per pixel
#define BINDING_FLIP_PARTIALS 8   // buffer: a vec4 (sum, 0, 0, max) per reduce tile
#define BINDING_FLIP_EXPOSURES 9  // buffer: FlipExposuresGpu, HDR-FLIP's exposures this frame
#define BINDING_FLIP_RANGE 10     // buffer: FlipRangeGpu, the range's histograms (flip_range.comp)
// HDR-FLIP's exposure range on the GPU (flip_range.comp, one shader, FLIP_RANGE_STEP_ID picks the
// step): the reference's largest luminance and its exact median (the element n / 2 in ascending
// order, as common::flip_exposures takes it), by the luminance's order-preserving 32-bit key: a
// histogram of its high 16 bits, the bin holding rank n / 2, a histogram of the low 16 bits inside
// that bin, the key. Then the exposures, as common::flip_exposures derives them.
#define FLIP_RANGE_STEP_ID 0
#define FLIP_RANGE_CLEAR 0
#define FLIP_RANGE_HIGH 1
#define FLIP_RANGE_SELECT_HIGH 2
#define FLIP_RANGE_LOW 3
#define FLIP_RANGE_SELECT_LOW 4
#define FLIP_RANGE_BINS 65536
#define FLIP_MAX_EXPOSURES 64
// How the rows pass reads its inputs (FlipPush::source).
#define FLIP_INPUT_LINEAR 0  // linear RGB, clamped to [0, 1]
#define FLIP_INPUT_SRGB 1    // sRGB-encoded values (pictures, displayed images), decoded first
#define FLIP_INPUT_HDR 2     // linear HDR: times the exposure, through FLIP's ACES, clamped

// The window's pixel inspector (pixel_probe.comp, renderer/passes/pixel_probe.h): an invocation
// per pixel (PROBE_PIXELS: the inspected one, then the cursor's for the magnifier) reads
// PROBE_IMAGES images there (each clamped to its own size) into this frame's host-visible buffer:
// A's and B's linear outputs, then their displayed images.
#define PROBE_IMAGES 4
#define PROBE_PIXELS 2
#define BINDING_PROBE_IMAGE_0 0  // sampler2D, and the next PROBE_IMAGES - 1 bindings
#define BINDING_PROBE_RESULT 4   // buffer: PixelProbeGpu

// HDR -> display (tonemap.comp, display_common.glsl; renderer/passes/tonemap_curves.h is the CPU model):
// the curve is a push constant, so the window switches it without a new pipeline.
#define TONEMAP_ACES 0      // Narkowicz's fit of the ACES filmic curve (2015)
#define TONEMAP_REINHARD 1  // Reinhard on luminance: L / (1 + L), the colour scaled alike
#define TONEMAP_HABLE 2     // Hable's filmic curve (Uncharted 2), exposure bias 2, white point 11.2
#define TONEMAP_AGX 3       // AgX (Sobotka), the common polynomial fit of its base contrast
#define TONEMAP_NEUTRAL 4   // Khronos PBR Neutral
#define TONEMAP_NONE 5      // identity: the display value is the linear value, clamped to [0, 1]
#define TONEMAP_COUNT 6
// Automatic exposure: the key over the image's geometric mean luminance (Reinhard et al. 2002),
// each pixel's luminance floored at EXPOSURE_MIN_LUMINANCE so that black pixels do not drag the
// mean to 0. A 16 x 16 group reduces a 32 x 32 tile (exposure_reduce.comp), one group the tiles
// (exposure_finish.comp); the tonemap multiplies its exposure by the result.
#define EXPOSURE_KEY 0.18
#define EXPOSURE_MIN_LUMINANCE 1e-4
#define EXPOSURE_TILE 32
#define BINDING_EXPOSURE_PARTIALS 2  // buffer: (sum of log luminance, pixels) per tile
#define BINDING_EXPOSURE_RESULT 3    // buffer: the exposure (one float)

// A still image in place of the scene (fit.comp): BINDING_SOURCE the image at its own size,
// BINDING_DESTINATION the frame's colour; FIT_GROUP x FIT_GROUP threads, a pixel each.
#define FIT_GROUP 16
// The box pyramid in one dispatch (pyramid.comp, renderer/passes/pyramid_pass.h): level k + 1's
// texel i is the mean of level k's texels 2i and 2i + 1 on each axis (sizes round up; past an odd
// edge the last texel repeats). A group of PYRAMID_THREADS threads turns each PYRAMID_TILE-square tile
// of level 0 it takes into its share of levels 1..PYRAMID_LOCAL_LEVELS; the last group to finish (an atomic
// count of the groups, which it sets back to 0) makes the rest, up to PYRAMID_MAX_LEVELS (a 16384
// side's 1 x 1).
#define PYRAMID_THREADS 256
#define PYRAMID_TILE 64
// Tiles a group makes, side by side in x, one after another (the next one's fetches in flight during
// this one's levels 2..): two where the levels are RGBA16F, one where they are RGBA32F (two measured
// slower there: docs/families/bigblur.md).
#define PYRAMID_GROUP_TILES_HALF 2
#define PYRAMID_GROUP_TILES_FLOAT 1
#define PYRAMID_LOCAL_LEVELS 6  // log2(PYRAMID_TILE)
#define PYRAMID_MAX_LEVELS 14
#define BINDING_PYRAMID_SOURCE 0   // sampler2D: level 0, texelFetch
#define BINDING_PYRAMID_COUNTER 1  // buffer: the groups that have finished their tile (one uint)
#define BINDING_PYRAMID_LEVEL 2    // storage images: level k at BINDING_PYRAMID_LEVEL + k - 1

#ifdef __cplusplus
namespace filterlab::shader {
#endif
struct FitPush {
  float scale;     // frame pixels per image pixel
  float offset_x;  // where the image's top-left corner lands in the frame, pixels
  float offset_y;
  uint exact;  // the same size: texelFetch, bit for bit
};
// flip_rows.comp's, flip_columns.comp's and flip_range.comp's push constants.
struct FlipPush {
  uint source;     // FLIP_INPUT_*: how the rows pass reads the images
  uint exposure;   // FLIP_INPUT_HDR: which of FlipExposuresGpu's exposures (from 0)
  float cmax;      // the HyAB distance of green and blue, ^qc: the colour remap's scale
  float aces_085;  // flip_range.comp: the value FLIP's ACES takes to 0.85
};
// HDR-FLIP's exposures: `count` of them from `start` to `stop` stops (common::FlipExposures); count
// 0 where the reference has no range (its largest or median luminance is not above 0).
struct FlipExposuresGpu {
  float start;
  float stop;
  uint count;
  uint pad;
};
#ifdef __cplusplus
}  // namespace filterlab::shader
#endif

#endif  // FILTERLAB_PASSES_CONFIG_H
