#pragma once
// 1D blur kernels (Gaussian, box, binomial). Seed: chapman-optimizing-convolutions.md (appendix B);
// their bilinear tap form (appendix A) is the gaussian family's (filters/gaussian/methods.h).
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

}  // namespace filterlab::common
