#pragma once
// FLIP, the perceptual difference of two images as they look when flipped between (Andersson et al.,
// "FLIP: A Difference Evaluator for Alternating Images", HPG 2020), and HDR-FLIP (Andersson et al.,
// "Visualizing Errors in Rendered High Dynamic Range Images", Eurographics 2021), in double precision:
// the definition of NVIDIA's reference implementation (NVlabs/flip, FLIP.h, v1.6), which the GPU
// passes are tested against. Per pixel:
//   colour: linear RGB -> YCxCz, filtered by the contrast sensitivity functions (sums of Gaussians,
//     the edge texels replicated), back to linear RGB clamped to [0, 1], L*a*b* with the Hunt
//     adjustment, the HyAB distance raised to qc = 0.7 and remapped (pc = 0.4, pt = 0.95) against
//     that of green and blue;
//   features: edges and points (first and second derivatives of a Gaussian of 0.082 degrees) of the
//     unfiltered achromatic channel, qf = 0.5;
//   FLIP = colour ^ (1 - features), in [0, 1].
// HDR-FLIP: LDR-FLIP of both images exposed and tonemapped (ACES) at exposures from the reference's
// luminance, the largest per pixel.
#include "io/image_io.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace filterlab::common {

// Pixels per degree of a monitor `width_m` wide of `pixels` columns seen from `distance_m`.
double pixels_per_degree(double width_m, double pixels, double distance_m);
// The FLIP tools' default: a 0.7 m wide 3840-pixel monitor at 0.7 m (67.0206...).
double default_pixels_per_degree();
// The most the reference takes: its filters grow with the pixels per degree (136 taps each side at
// 1000), and no display is that fine.
inline constexpr double kMaxPixelsPerDegree = 1000;

// The filters of FLIP at `ppd` pixels per degree, in double: the reference's and the GPU passes'
// one definition. Each list is centred (2 radius + 1 taps), applied as a correlation, the edge
// texels replicated.
struct FlipFilters {
  // The contrast sensitivity functions, sums of Gaussians: channel Y's is term 0, Cx's term 1, Cz's
  // terms 2 and 3; the 2D filter of a channel is the sum of its terms' csf_scale[k] csf[k](x) csf[k](y).
  int csf_radius = 0;
  std::array<std::vector<double>, 4> csf;
  std::array<double, 4> csf_scale{};
  // The features: G (sum 1), G' and G'' (positive weights sum 1, negative ones -1).
  int feature_radius = 0;
  std::vector<double> g, dg, ddg;
};
FlipFilters flip_filters(double ppd);
// The colour remap's scale: the HyAB distance of linear green and blue, ^0.7.
double flip_cmax();

struct FlipExposures {
  double start = 0, stop = 0;
  uint32_t count = 0;
  double at(uint32_t i) const { return count < 2 ? start : start + (stop - start) * i / (count - 1); }
};
// The value FLIP's ACES curve takes to 0.85 (2.1188723...).
double flip_aces_white();
// The exposure range of HDR-FLIP from the reference (linear RGB): from log2(x / max luminance) to
// log2(x / median luminance), x = flip_aces_white(), max(2, ceil(stop - start))
// exposures (at most 64). Throws std::invalid_argument where the max or the median luminance is not
// above 0.
FlipExposures flip_exposures(const io::ImageF& reference);

// The per-pixel FLIP map (row-major) of `test` against `reference`, both linear RGB (alpha and other
// channels past the third dropped), of one size, ppd in (0, kMaxPixelsPerDegree] (std::invalid_argument
// otherwise). LDR: values clamped to [0, 1]. HDR: at the given exposures.
// FlipInput::Srgb: the images hold sRGB-encoded values (pictures), decoded first, as FLIP's tools do.
enum class FlipInput { Linear, Srgb };
std::vector<double> ldr_flip(const io::ImageF& reference, const io::ImageF& test, double ppd,
                             FlipInput input = FlipInput::Linear);
std::vector<double> hdr_flip(const io::ImageF& reference, const io::ImageF& test, double ppd,
                             const FlipExposures& exposures);

// How FLIP views a pair, as the commands' --ppd / --monitor and --flip-exposure set it.
struct FlipViewing {
  double ppd = default_pixels_per_degree();
  std::optional<FlipExposures> exposures;  // HDR-FLIP's; none: from the reference (flip_exposures)
};

struct FlipPooled {
  double mean = 0, weighted_median = 0, max = 0;
};
// The map as a picture in the magma colour map (FLIP's tools' own: index round(255 v)), opaque.
io::ImageU8 flip_magma(const std::vector<double>& map, uint32_t width, uint32_t height);

// The map's mean, its weighted median (the FLIP tool's: sorted ascending, the first value whose
// running sum passes half the total) and its maximum.
FlipPooled pool_flip(const std::vector<double>& map);

}  // namespace filterlab::common
