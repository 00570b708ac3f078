#pragma once
// 1D blur kernels (Gaussian, box, binomial), their bilinear-optimized tap form and
// texture-fetch accounting. Seeds: chapman-optimizing-convolutions.md (appendices A and B),
// amd-tiled-separable-convolution-opencl.md and zubatov-texture-reading-optimization-derivatives.md.
#include <optional>
#include <string_view>
#include <vector>

namespace filterlab::common {

enum class KernelType { Gaussian, Box, Binomial };

const char* kernel_type_name(KernelType type);  // "gaussian", "box", "binomial"
std::optional<KernelType> parse_kernel_type(std::string_view name);

// The largest radius the kernel math serves (double precision: the binomial's C(2r, k) stay finite).
// Each filter method serves its own, smaller, limit.
constexpr int kMaxKernelRadius = 256;

// Chapman, appendix B: "the ideal sigma should be chosen such that the weights at the kernel's
// boundary are the smallest nonzero weights for a given precision (e.g. 1/255 for an 8-bit image)".
// Defined here as the sigma at which the boundary weight w[+-radius] of the *normalized* truncated
// kernel (the weights the filter actually uses, as kernel_weights returns them) equals epsilon.
// Throws std::invalid_argument for radius outside [1, kMaxKernelRadius] or epsilon outside
// (0, 1/(2 radius + 1)) -- the boundary weight can never reach 1/(2r+1) (that is the box limit).
// Neumaier-compensated sum: accurate to about one ulp, where a plain loop drifts by n ulps.
double compensated_sum(const std::vector<double>& values);

double ideal_sigma(int radius, double epsilon = 1.0 / 255.0);

struct KernelSpec {
  KernelType type = KernelType::Gaussian;
  int radius = 2;
  std::optional<double> sigma;  // Gaussian only; unset -> ideal_sigma(radius, epsilon)
  double epsilon = 1.0 / 255.0;
  double resolved_sigma() const;
};

// 2r+1 weights for offsets -r..r, exactly symmetric, normalized to sum 1.
// Throws std::invalid_argument for radius outside [1, kMaxKernelRadius] or a sigma that is not finite and >
// 0.
std::vector<double> kernel_weights(const KernelSpec& spec);

// One bilinear sample: offset in texels from the center pixel.
struct LinearTap {
  double offset;
  double weight;
};

// Chapman, appendix A: adjacent weights paired from -r upward, (w[-r], w[-r+1]), (w[-r+2], w[-r+3]),
// ..., with w[+r] left alone: r+1 taps for 2r+1 weights. A pair (i, i+1) with weights a, b becomes
// offset i + b/(a+b), weight a+b. Throws std::invalid_argument unless weights.size() is odd and every
// weight is >= 0 (otherwise b/(a+b) leaves [0,1] and one lerp cannot stand for the pair).
std::vector<LinearTap> linear_taps(const std::vector<double>& weights);

// 2D bilinear taps: outer product of the 1D taps, (r+1)^2 of them, rows (y) outer, x inner.
struct LinearTap2D {
  double offset_x, offset_y, weight;
};
std::vector<LinearTap2D> linear_taps_2d(const std::vector<double>& weights);

// sum_k weight_k * lerp(signal, center + offset_k) with exact linear interpolation between texel
// centers and clamp-to-edge indexing, i.e. what a bilinear sampler with CLAMP_TO_EDGE would return
// in infinite precision. Used to check that the tap form reproduces the discrete kernel.
double apply_linear_taps_1d(const std::vector<LinearTap>& taps, const std::vector<double>& signal,
                            int center);

// Texture fetches per output pixel for a (2r+1)x(2r+1) kernel (Chapman: "Separability" and
// "Bilinear Filtering"; Zubatov: (2r+1)^2, 4r+2 and 2r+2 samples).
double fetches_full2d(int r);            // (2r+1)^2
double fetches_separable(int r);         // 2 (2r+1): one horizontal and one vertical pass
double fetches_separable_linear(int r);  // 2 (r+1): each pass uses the r+1 bilinear taps
double fetches_full2d_linear(int r);     // (r+1)^2: one bilinear sample per 2x2 block of weights

}  // namespace filterlab::common
