#include "filters/bigblur/design.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <random>

namespace filterlab::filters::bigblur {

int exact_radius(double sigma) {
  return int(std::ceil(4.0 * sigma));
}

std::vector<double> exact_weights(double sigma) {
  const int r = exact_radius(sigma);
  std::vector<double> w(size_t(r) + 1);
  double sum = 0;
  for (int i = 0; i <= r; ++i) {
    w[size_t(i)] = std::exp(-double(i) * i / (2.0 * sigma * sigma));
    sum += (i == 0 ? 1.0 : 2.0) * w[size_t(i)];
  }
  for (double& v : w) v /= sum;
  return w;
}

shader::RecursiveCoefficients recursive_coefficients(double sigma) {
  struct Term {
    double cosine, sine, decay, frequency;
  };
  constexpr Term kTerms[2] = {{1.680, 3.735, 1.783, 0.6318}, {-0.6803, -0.2598, 1.723, 1.997}};
  shader::RecursiveCoefficients k{};
  double sum = 0;  // of the kernel over every integer: both directions, the centre once
  for (int s = 0; s < 2; ++s) {
    const Term& t = kTerms[s];
    const double r = std::exp(-t.decay / sigma), theta = t.frequency / sigma;
    double d1 = -2.0 * r * std::cos(theta), d2 = r * r;
    const double h0 = t.cosine, h1 = (t.cosine * std::cos(theta) + t.sine * std::sin(theta)) * r;
    // Causal: sum_{n >= 0} h(n) z^-n = (n0 + n1 z^-1) / (1 + d1 z^-1 + d2 z^-2). Anticausal:
    // sum_{n >= 1} h(n) z^n, the same less h(0): numerator (m1 z + m2 z^2).
    // The shader's coefficients are floats: the gains and the scale below are computed from the
    // rounded values, so that a constant passes exactly as the shader runs it (at sigma 256,
    // 1 + d1 + d2 is 5e-5 and the rounding of d1 alone would move each section's gain by 0.2%).
    auto f = [](double v) { return double(float(v)); };
    const double n0 = f(h0), n1 = f(h1 + d1 * h0), m1 = f(h1 + d1 * h0 - h0 * d1), m2 = f(-h0 * d2);
    d1 = f(d1);
    d2 = f(d2);
    const double dc = 1.0 + d1 + d2;
    k.causal[4 * s + 0] = float(n0);
    k.causal[4 * s + 1] = float(n1);
    k.causal[4 * s + 2] = float(d1);
    k.causal[4 * s + 3] = float(d2);
    k.anticausal[4 * s + 0] = float(m1);
    k.anticausal[4 * s + 1] = float(m2);
    k.anticausal[4 * s + 2] = float((n0 + n1) / dc);  // a constant's steady state, forward
    k.anticausal[4 * s + 3] = float((m1 + m2) / dc);  // and backward
    sum += (n0 + n1 + m1 + m2) / dc;
    // The state carried through a block with no input, on (u, v) = (y1, y1 - y2): columns the
    // images of (u, v) = (1, 0), i.e. y1 = y2 = 1, and (0, 1), i.e. y1 = 0, y2 = -1.
    auto through_block = [&](double y1, double y2) {
      for (int n = 0; n < BIGBLUR_BLOCK; ++n) {
        const double y = -d1 * y1 - d2 * y2;
        y2 = y1;
        y1 = y;
      }
      return std::pair{y1, y1 - y2};
    };
    const auto [u0, v0] = through_block(1.0, 1.0);   // (u, v) = (1, 0)
    const auto [u1, v1] = through_block(0.0, -1.0);  // (u, v) = (0, 1): y1 = 0, y2 = y1 - v = -1
    k.block_carry[4 * s + 0] = float(u0);
    k.block_carry[4 * s + 1] = float(v0);
    k.block_carry[4 * s + 2] = float(u1);
    k.block_carry[4 * s + 3] = float(v1);
  }
  k.inv_scale = float(1.0 / sum);
  return k;
}

std::vector<std::array<double, 2>> poisson_disk(int n) {
  std::mt19937 random(20141);  // fixed: the disk is part of the method's definition
  auto uniform = [&] { return double(random()) / 4294967296.0; };
  auto in_disk = [&] {
    for (;;) {
      const double x = 2.0 * uniform() - 1.0, y = 2.0 * uniform() - 1.0;
      if (x * x + y * y <= 1.0) return std::array<double, 2>{x, y};
    }
  };
  std::vector<std::array<double, 2>> points = {in_disk()};
  while (int(points.size()) < n) {
    std::array<double, 2> best{};
    double best_distance = -1;
    for (size_t c = 0; c < 32 * points.size(); ++c) {
      const std::array<double, 2> candidate = in_disk();
      double nearest = std::numeric_limits<double>::infinity();
      for (const auto& p : points)
        nearest = std::min(nearest, std::hypot(candidate[0] - p[0], candidate[1] - p[1]));
      if (nearest > best_distance) {
        best_distance = nearest;
        best = candidate;
      }
    }
    points.push_back(best);
  }
  return points;
}

// Hexagonal packing of n points in the unit disk's area would space them sqrt(2 pi / (sqrt 3 n));
// best candidate keeps at least 0.6 of that (the tests check every n from 2 to 64).
double poisson_min_distance(int n) {
  return 0.6 * std::sqrt(2.0 * std::numbers::pi / (std::sqrt(3.0) * n));
}

PoissonDesign poisson_design(double sigma, int samples, bool trilinear) {
  PoissonDesign d;
  // Each sample reads the image prefiltered over its share of the disk, a square of side
  // f = sqrt(pi R^2 / N), which spreads it by f^2 / 12 per axis (a box). With R = 3 s:
  // sigma^2 = s^2 + f^2 / 12 = s^2 (1 + 9 pi / (12 N)).
  d.weight_sigma = sigma / std::sqrt(1.0 + 9.0 * std::numbers::pi / (12.0 * samples));
  d.radius = 3.0 * d.weight_sigma;
  const double share = std::sqrt(std::numbers::pi * d.radius * d.radius / samples);
  d.lod = std::max(0.0, std::log2(share));
  if (!trilinear) {
    // The nearest level: its texels, 2^lod wide, spread by 4^lod / 12; the weights make up the rest
    // (at least half of sigma).
    d.lod = std::max(0.0, std::round(d.lod));
    d.weight_sigma = std::sqrt(std::max(sigma * sigma - std::exp2(2 * d.lod) / 12.0, sigma * sigma / 4));
    d.radius = 3.0 * d.weight_sigma;
  }
  d.fine = int(std::floor(d.lod));
  d.coarse = trilinear ? d.fine + 1 : d.fine;
  d.levels = d.coarse;
  double total = 0;
  for (const auto& p : poisson_disk(samples)) {
    const double x = p[0] * d.radius, y = p[1] * d.radius;
    const double w = std::exp(-(x * x + y * y) / (2.0 * d.weight_sigma * d.weight_sigma));
    d.disk.push_back({float(x), float(y), float(w), 0.0f});
    total += w;
  }
  for (auto& p : d.disk) p[2] = float(p[2] / total);
  return d;
}

// Each pass's spread along an axis, in its source level's texels, with the bilinear taps' own
// (f(1 - f) at fraction f): dual down 3/4, dual up 1/3 + 3/16; 13-tap down 7/4, tent up 1/2 + 3/16.
// A down pass from level j - 1 counts 4^(j-1) in level-0 pixels squared, an up pass from level j 4^j:
// the k levels down and up add (down + 4 up) (4^k - 1) / 3.
double chain_sigma(Chain chain, int levels) {
  const double down = chain == Chain::Dual ? 0.75 : 1.75;
  const double up = chain == Chain::Dual ? 1.0 / 3.0 + 3.0 / 16.0 : 0.5 + 3.0 / 16.0;
  return std::sqrt((down + 4.0 * up) * (std::pow(4.0, levels) - 1.0) / 3.0);
}

int chain_levels(Chain chain, double sigma) {
  int best = 1;
  for (int k = 2; k <= 12; ++k)
    if (std::abs(std::log(chain_sigma(chain, k) / sigma)) <
        std::abs(std::log(chain_sigma(chain, best) / sigma)))
      best = k;
  return best;
}

double interleaved_gradient_noise(int x, int y, uint32_t frame) {
  const float offset = 5.588238f * float(frame % 64u);
  const float ax = float(x) + offset, ay = float(y) + offset;
  const float inner = 0.06711056f * ax + 0.00583715f * ay;
  const float v = 52.9829189f * (inner - std::floor(inner));
  return v - std::floor(v);
}

}  // namespace filterlab::filters::bigblur
