#include "common/kernel.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace filterlab::common {

namespace {

void check_radius(int radius) {
  if (radius < 1 || radius > kMaxKernelRadius)
    throw std::invalid_argument("kernel radius " + std::to_string(radius) + " is outside [1, " +
                                std::to_string(kMaxKernelRadius) + "]");
}

// Boundary weight w[r] of the normalized Gaussian kernel, written as 1 / sum_i g(i)/g(r) so a tiny
// sigma overflows harmlessly to 1/inf = 0 instead of producing 0/0.
double gaussian_boundary_weight(int radius, double sigma) {
  double denom = 0;
  for (int i = -radius; i <= radius; ++i)
    denom += std::exp(double(radius * radius - i * i) / (2.0 * sigma * sigma));
  return 1.0 / denom;
}

}  // namespace

// Neumaier-compensated sum: normalization divides by this, and the "sums to 1 within 1e-15" promise
// for 65 weights needs a divisor accurate to ~1 ulp rather than the ~n ulp of a naive loop.
double compensated_sum(const std::vector<double>& v) {
  double sum = 0, comp = 0;
  for (double x : v) {
    double t = sum + x;
    comp += std::abs(sum) >= std::abs(x) ? (sum - t) + x : (x - t) + sum;
    sum = t;
  }
  return sum + comp;
}

const char* kernel_type_name(KernelType type) {
  switch (type) {
    case KernelType::Gaussian: return "gaussian";
    case KernelType::Box: return "box";
    case KernelType::Binomial: return "binomial";
  }
  return "unknown";
}

std::optional<KernelType> parse_kernel_type(std::string_view name) {
  auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; };
  for (KernelType t : {KernelType::Gaussian, KernelType::Box, KernelType::Binomial}) {
    std::string_view candidate = kernel_type_name(t);
    if (std::equal(name.begin(), name.end(), candidate.begin(), candidate.end(),
                   [&](char a, char b) { return lower(a) == b; }))
      return t;
  }
  return std::nullopt;
}

double ideal_sigma(int radius, double epsilon) {
  check_radius(radius);
  // The normalized boundary weight rises monotonically with sigma, from 0 (sigma -> 0) towards the
  // box value 1/(2r+1) (sigma -> infinity): every ratio g(i)/g(r), |i| < r, shrinks as sigma grows.
  // So a root exists exactly for epsilon in (0, 1/(2r+1)), and bisection finds it. The seed gives no
  // closed form (r = 1 has one: sigma = 1/sqrt(2 ln(1/epsilon - 2)); the unit test checks it).
  const double box = 1.0 / (2 * radius + 1);
  if (!(epsilon > 0 && epsilon < box))
    throw std::invalid_argument("ideal_sigma: epsilon " + std::to_string(epsilon) +
                                " must lie in (0, 1/(2r+1)) = (0, " + std::to_string(box) + ")");
  double lo = 1e-3, hi = 1.0;  // boundary weight at sigma = 1e-3 underflows to 0 < epsilon
  while (gaussian_boundary_weight(radius, hi) < epsilon) {
    lo = hi;
    hi *= 2;
    if (!std::isfinite(hi)) throw std::invalid_argument("ideal_sigma: epsilon too close to 1/(2r+1)");
  }
  for (int k = 0; k < 200; ++k) {  // ends earlier, once the midpoint no longer splits [lo, hi]
    double mid = 0.5 * (lo + hi);
    if (mid <= lo || mid >= hi) break;
    (gaussian_boundary_weight(radius, mid) < epsilon ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

double KernelSpec::resolved_sigma() const {
  return sigma ? *sigma : ideal_sigma(radius, epsilon);
}

std::vector<double> kernel_weights(const KernelSpec& spec) {
  check_radius(spec.radius);
  if (spec.sigma && !(std::isfinite(*spec.sigma) && *spec.sigma > 0))
    throw std::invalid_argument("kernel sigma must be finite and > 0, got " + std::to_string(*spec.sigma));
  const int r = spec.radius, n = 2 * r + 1;
  std::vector<double> w(size_t(n), 1.0);  // box: all equal before normalization
  switch (spec.type) {
    case KernelType::Box: break;
    case KernelType::Gaussian: {
      const double s = spec.resolved_sigma();
      for (int i = -r; i <= r; ++i) w[size_t(i + r)] = std::exp(-double(i * i) / (2 * s * s));
      break;
    }
    case KernelType::Binomial: {
      // Row 2r of Pascal's triangle divided by 2^(2r), built row by row as (left + right) / 2:
      // no factorials, so nothing overflows (C(64,32) ~ 1.8e18), every entry stays in (0, 1], and
      // a + b == b + a keeps each row exactly symmetric.
      std::vector<double> row{1.0};
      for (int k = 1; k < n; ++k) {
        std::vector<double> next(row.size() + 1);
        for (size_t j = 0; j < next.size(); ++j)
          next[j] = ((j > 0 ? row[j - 1] : 0.0) + (j < row.size() ? row[j] : 0.0)) / 2;
        row = std::move(next);
      }
      w = std::move(row);
      break;
    }
  }
  const double sum = compensated_sum(w);
  for (double& x : w) x /= sum;  // same divisor for mirrored entries: symmetry is kept exactly
  return w;
}

}  // namespace filterlab::common
