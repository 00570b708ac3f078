#include "common/kernel.h"
#include "common/reference.h"
#include "filters/chain.h"
#include "filters/gaussian/methods.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <utility>
#include <vector>

using namespace filterlab::common;
using namespace filterlab::filters;
using filterlab::filters::gaussian::linear_taps;
using filterlab::filters::gaussian::LinearTap;
using filterlab::filters::gaussian::separable_stream_groups;
using filterlab::io::ImageF;

namespace {

// The radii the gaussian methods serve (each method's own limit is at most this).
constexpr int kMaxRadius = 32;

const Method* find_gaussian_method(const char* name) {
  return registry().find("gaussian")->find(name);
}

MethodCost cost_at(const Method& m, int radius) {
  return m.cost(resolve({"gaussian", m.name, {{"radius", std::to_string(radius)}}, ""}).params);
}

constexpr KernelType kAllTypes[] = {KernelType::Gaussian, KernelType::Box, KernelType::Binomial};

std::vector<double> weights_of(KernelType type, int r) {
  return kernel_weights({type, r, {}, 1.0 / 255.0});
}

// Discrete 1D convolution with clamp-to-edge: what the bilinear taps must reproduce.
double convolve_1d(const std::vector<double>& w, const std::vector<double>& s, int center) {
  const int r = int(w.size() / 2), last = int(s.size()) - 1;
  double sum = 0;
  for (int i = -r; i <= r; ++i) sum += w[size_t(i + r)] * s[size_t(std::clamp(center + i, 0, last))];
  return sum;
}

// sum_k weight_k lerp(signal, centre + offset_k), exact interpolation between texel centres and
// clamp to edge: what a bilinear sampler with CLAMP_TO_EDGE returns in infinite precision.
double apply_linear_taps_1d(const std::vector<LinearTap>& taps, const std::vector<double>& signal,
                            int center) {
  const int last = int(signal.size()) - 1;
  auto texel = [&](int i) { return signal[size_t(std::clamp(i, 0, last))]; };
  double sum = 0;
  for (const LinearTap& tap : taps) {
    // Split the offset before adding the centre so the lerp factor keeps full precision.
    const double whole = std::floor(tap.offset), t = tap.offset - whole;
    const int i0 = center + int(whole);
    sum += tap.weight * ((1 - t) * texel(i0) + t * texel(i0 + 1));
  }
  return sum;
}

// frag.full2d_linear's 2D taps: for a separable kernel, Chapman's 2D pairing (appendix A,
// KernelOptimizeBilinear2d) is the outer product of the 1D taps, rows (y) outer.
struct LinearTap2D {
  double offset_x, offset_y, weight;
};
std::vector<LinearTap2D> linear_taps_2d(const std::vector<double>& weights) {
  const std::vector<LinearTap> t = linear_taps(weights);
  std::vector<LinearTap2D> taps;
  for (const LinearTap& y : t)
    for (const LinearTap& x : t) taps.push_back({x.offset, y.offset, x.weight * y.weight});
  return taps;
}

// Exact bilinear interpolation with clamp-to-edge on one channel of an image.
double apply_linear_taps_2d(const std::vector<LinearTap2D>& taps, const ImageF& img, int x, int y,
                            uint32_t c) {
  auto texel = [&](int tx, int ty) {
    return double(img.at(uint32_t(std::clamp(tx, 0, int(img.width) - 1)),
                         uint32_t(std::clamp(ty, 0, int(img.height) - 1)), c));
  };
  double sum = 0;
  for (const LinearTap2D& t : taps) {
    const double fx = std::floor(t.offset_x), fy = std::floor(t.offset_y), ax = t.offset_x - fx,
                 ay = t.offset_y - fy;
    const int x0 = x + int(fx), y0 = y + int(fy);
    const double top = (1 - ax) * texel(x0, y0) + ax * texel(x0 + 1, y0);
    const double bottom = (1 - ax) * texel(x0, y0 + 1) + ax * texel(x0 + 1, y0 + 1);
    sum += t.weight * ((1 - ay) * top + ay * bottom);
  }
  return sum;
}

}  // namespace

TEST(Kernel, TypeNamesRoundTrip) {
  for (KernelType t : kAllTypes) EXPECT_EQ(parse_kernel_type(kernel_type_name(t)), t);
  EXPECT_EQ(parse_kernel_type("Gaussian"), KernelType::Gaussian);
  EXPECT_FALSE(parse_kernel_type("tent").has_value());
  EXPECT_FALSE(parse_kernel_type("").has_value());
}

TEST(Kernel, WeightsNormalizedSymmetricPositive) {
  for (KernelType t : kAllTypes)
    for (int r = 1; r <= kMaxRadius; ++r) {
      SCOPED_TRACE(std::string(kernel_type_name(t)) + " r=" + std::to_string(r));
      const auto w = weights_of(t, r);
      ASSERT_EQ(w.size(), size_t(2 * r + 1));
      EXPECT_NEAR(compensated_sum(w), 1.0, 1e-15);
      for (size_t i = 0; i < w.size(); ++i) {
        EXPECT_EQ(w[i], w[w.size() - 1 - i]);
        EXPECT_GT(w[i], 0.0);
      }
    }
}

TEST(Kernel, BoxValues) {
  for (int r = 1; r <= kMaxRadius; ++r)
    for (double x : weights_of(KernelType::Box, r)) EXPECT_DOUBLE_EQ(x, 1.0 / (2 * r + 1));
}

TEST(Kernel, BinomialRowsOfPascalsTriangle) {
  EXPECT_EQ(weights_of(KernelType::Binomial, 1), (std::vector<double>{0.25, 0.5, 0.25}));
  EXPECT_EQ(weights_of(KernelType::Binomial, 2),
            (std::vector<double>{1 / 16.0, 4 / 16.0, 6 / 16.0, 4 / 16.0, 1 / 16.0}));
  // r = 32: C(64, k) / 2^64 from an independent lgamma evaluation (C(64,32) ~ 1.8e18 > 2^53).
  const auto w = weights_of(KernelType::Binomial, 32);
  for (int k = 0; k <= 64; ++k) {
    const double expect =
        std::exp(std::lgamma(65.0) - std::lgamma(k + 1.0) - std::lgamma(65.0 - k) - 64 * std::log(2.0));
    EXPECT_NEAR(w[size_t(k)] / expect, 1.0, 1e-12) << "k=" << k;
  }
}

TEST(Kernel, GaussianShape) {
  for (double s : {0.5, 1.0, 2.0, 7.3})
    for (int r : {1, 4, 32}) {
      const auto w = kernel_weights({KernelType::Gaussian, r, s});
      EXPECT_NEAR(w[size_t(r + 1)] / w[size_t(r)], std::exp(-1 / (2 * s * s)), 1e-14) << s << " " << r;
      EXPECT_NEAR(w[0] / w[size_t(r)], std::exp(-double(r * r) / (2 * s * s)), 1e-14) << s << " " << r;
    }
  // Unset sigma means the ideal sigma for the spec's epsilon.
  KernelSpec spec{KernelType::Gaussian, 5, {}, 1.0 / 1023.0};
  EXPECT_EQ(spec.resolved_sigma(), ideal_sigma(5, 1.0 / 1023.0));
  EXPECT_EQ(kernel_weights(spec), kernel_weights({KernelType::Gaussian, 5, ideal_sigma(5, 1.0 / 1023.0)}));
}

// Chapman appendix B: sigma such that "the weights at the kernel's boundary are the smallest nonzero
// weights for a given precision (e.g. 1/255 for an 8-bit image)".
TEST(Kernel, IdealSigmaDefinition) {
  EXPECT_EQ(KernelSpec{}.epsilon, 1.0 / 255.0);  // the seed's example precision is the default
  EXPECT_EQ(ideal_sigma(3), ideal_sigma(3, 1.0 / 255.0));
  for (double eps : {1.0 / 255.0, 1.0 / 1023.0, 1.0 / 65535.0}) {
    double previous = 0;
    for (int r = 1; r <= kMaxRadius; ++r) {
      SCOPED_TRACE("eps=" + std::to_string(eps) + " r=" + std::to_string(r));
      const double s = ideal_sigma(r, eps);
      const auto w = kernel_weights({KernelType::Gaussian, r, s});
      EXPECT_NEAR(w.front(), eps, 1e-9);
      EXPECT_NEAR(w.back(), eps, 1e-9);
      EXPECT_EQ(*std::min_element(w.begin(), w.end()), w.front());  // the boundary is the smallest weight
      EXPECT_GT(s, previous);                                       // a wider kernel needs a wider Gaussian
      previous = s;
    }
  }
  // r = 1 has a closed form: w[1] = 1 / (2 + e^{1/(2 s^2)}) = eps  <=>  s = 1 / sqrt(2 ln(1/eps - 2)).
  EXPECT_NEAR(ideal_sigma(1), 1 / std::sqrt(2 * std::log(255.0 - 2.0)), 1e-12);
  // A coarser precision allows a larger boundary weight, i.e. a flatter (wider) Gaussian for the same r.
  EXPECT_GT(ideal_sigma(4, 1.0 / 63.0), ideal_sigma(4, 1.0 / 255.0));
}

TEST(Kernel, InvalidArgumentsThrow) {
  for (int r : {-1, 0, kMaxKernelRadius + 1}) {
    EXPECT_THROW(kernel_weights({KernelType::Box, r, {}}), std::invalid_argument) << r;
    EXPECT_THROW(ideal_sigma(r), std::invalid_argument) << r;
  }
  for (double s : {0.0, -1.0, std::nan(""), std::numeric_limits<double>::infinity()})
    EXPECT_THROW(kernel_weights({KernelType::Gaussian, 2, s}), std::invalid_argument) << s;
  EXPECT_THROW(ideal_sigma(2, 0.0), std::invalid_argument);
  EXPECT_THROW(ideal_sigma(2, 0.2), std::invalid_argument);  // >= 1/5: not reachable by any sigma
  EXPECT_THROW(linear_taps({0.5, 0.5}), std::invalid_argument);
  EXPECT_THROW(linear_taps({-0.1, 1.2, -0.1}), std::invalid_argument);
  EXPECT_THROW(reference_blur(ImageF{1, 1, 1, {0.f}}, {0.5, 0.5}), std::invalid_argument);
}

TEST(Kernel, LinearTapsFollowChapmanAppendixA) {
  for (KernelType t : kAllTypes)
    for (int r = 1; r <= kMaxRadius; ++r) {
      SCOPED_TRACE(std::string(kernel_type_name(t)) + " r=" + std::to_string(r));
      const auto w = weights_of(t, r);
      const auto taps = linear_taps(w);
      ASSERT_EQ(taps.size(), size_t(r + 1));
      double sum = 0;
      for (size_t k = 0; k + 1 < taps.size(); ++k) {
        // Chapman's form o3 = (o1 w1 + o2 w2) / w3, w3 = w1 + w2, for offsets o1 = -r + 2k, o2 = o1 + 1.
        const double o1 = -r + 2.0 * double(k), w1 = w[2 * k], w2 = w[2 * k + 1];
        EXPECT_NEAR(taps[k].offset, (o1 * w1 + (o1 + 1) * w2) / (w1 + w2), 1e-12);
        EXPECT_EQ(taps[k].weight, w1 + w2);
        sum += taps[k].weight;
      }
      EXPECT_EQ(taps.back().offset, double(r));
      EXPECT_EQ(taps.back().weight, w.back());
      EXPECT_NEAR(sum + taps.back().weight, 1.0, 1e-14);
    }
}

TEST(Kernel, LinearTapsReproduceDiscreteConvolution) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> uni(-1.0, 1.0);  // test-local: need not match other platforms
  for (KernelType t : kAllTypes)
    for (int r = 1; r <= kMaxRadius; ++r) {
      const auto w = weights_of(t, r);
      const auto taps = linear_taps(w);
      // One signal shorter than the kernel (every tap clamps) and one long enough to have an interior.
      for (size_t length : {size_t(5), size_t(2 * r + 9)}) {
        std::vector<double> s(length);
        for (double& v : s) v = uni(rng);
        for (int c = 0; c < int(length); ++c)
          ASSERT_NEAR(apply_linear_taps_1d(taps, s, c), convolve_1d(w, s, c), 1e-12)
              << kernel_type_name(t) << " r=" << r << " length=" << length << " center=" << c;
      }
    }
}

TEST(Kernel, LinearTaps2dReproduce2dSum) {
  const ImageF img = random_image(9, 6, 2, 11);
  for (KernelType t : kAllTypes)
    for (int r = 1; r <= kMaxRadius; ++r) {
      const auto w = weights_of(t, r);
      const auto taps = linear_taps_2d(w);
      ASSERT_EQ(taps.size(), size_t((r + 1) * (r + 1)));
      ASSERT_EQ(cost_at(*find_gaussian_method("frag.full2d_linear"), r).fetches, double(taps.size()));
      std::vector<double> tap_weights;
      for (const auto& tap : taps) tap_weights.push_back(tap.weight);
      EXPECT_NEAR(compensated_sum(tap_weights), 1.0, 1e-14);
      const ImageD expect = reference_blur_2d(img, w);
      for (uint32_t y = 0; y < img.height; ++y)
        for (uint32_t x = 0; x < img.width; ++x)
          for (uint32_t c = 0; c < img.channels; ++c)
            ASSERT_NEAR(apply_linear_taps_2d(taps, img, int(x), int(y), c), expect.at(x, y, c), 1e-12)
                << kernel_type_name(t) << " r=" << r << " at " << x << "," << y << "," << c;
    }
}

// The costs each method reports (filterlab methods --json, the bench's fetches column) come from the
// method table; the seeds' 5x5 figures at 1080p must come out of it too.
TEST(Kernel, MethodTableReportsTheSeedsFetchCounts) {
  const double pixels = 1920.0 * 1080.0;
  auto fetches = [&](const char* method) {
    const Method* m = find_gaussian_method(method);
    EXPECT_NE(m, nullptr) << method;
    return m ? pixels * cost_at(*m, 2).fetches : 0.0;
  };
  EXPECT_EQ(fetches("frag.full2d"), 51'840'000.0);
  EXPECT_EQ(fetches("frag.separable"), 20'736'000.0);
  EXPECT_EQ(fetches("frag.separable_linear"), 12'441'600.0);  // Chapman: width N -> N/2 + 1 a pass
  // AMD: a 3x3 filter needs nine fetches naively, six (3 + 3) in two passes. Zubatov: (2r+1)^2
  // samples, 4r+2 separable, 2r+2 with the linear sampler.
  EXPECT_EQ(cost_at(*find_gaussian_method("frag.full2d"), 1).fetches, 9.0);
  EXPECT_EQ(cost_at(*find_gaussian_method("frag.separable"), 1).fetches, 6.0);
  for (int r = 1; r <= kMaxRadius; ++r) {
    EXPECT_EQ(cost_at(*find_gaussian_method("frag.full2d"), r).fetches, double((2 * r + 1) * (2 * r + 1)));
    EXPECT_EQ(cost_at(*find_gaussian_method("frag.separable"), r).fetches, 4.0 * r + 2);
    EXPECT_EQ(cost_at(*find_gaussian_method("frag.separable_linear"), r).fetches, 2.0 * r + 2);
  }
  for (const Method& m : registry().find("gaussian")->methods)
    for (int r = 1; r <= kMaxRadius; ++r) {
      const MethodCost c = cost_at(m, r);
      EXPECT_GT(c.fetches, 0.0) << m.name << " r=" << r;
      EXPECT_GE(c.shared_reads, 0.0) << m.name;
      EXPECT_GE(c.shared_writes, 0.0) << m.name;
      if (m.stage == Stage::Fragment) {
        EXPECT_EQ(c.shared_reads + c.shared_writes, 0.0) << m.name;
      }
      // Nothing reads more than the naive 2D kernel; caching methods read each texel about once.
      EXPECT_LE(c.fetches, double((2 * r + 1) * (2 * r + 1))) << m.name << " r=" << r;
    }
}

// comp.separable_stream reports its design: strips of 64 columns and about 200 rows, fetching
// 2r rows more (the vertical apron, once per strip), (64 + 2r) texels a row fetched and staged
// once, one horizontal sum per input row and column stored once, each run of 8 sums reading
// 2r + 8 staged texels, and each sum read once into its column's window of registers.
TEST(Kernel, MethodTableCostOfTheStreamedSeparableBlur) {
  const Method* stream = find_gaussian_method("comp.separable_stream");
  ASSERT_NE(stream, nullptr);
  EXPECT_EQ(stream->passes, 1);
  MethodCost c = cost_at(*stream, 8);
  EXPECT_DOUBLE_EQ(c.fetches, 216.0 / 200 * 80 / 64);
  EXPECT_DOUBLE_EQ(c.shared_writes, 216.0 / 200 * 80 / 64 + 216.0 / 200);
  EXPECT_DOUBLE_EQ(c.shared_reads, 216.0 / 200 * 24 / 8 + 216.0 / 200);
  c = cost_at(*stream, 3);
  EXPECT_DOUBLE_EQ(c.fetches, 206.0 / 200 * 70 / 64);
  EXPECT_DOUBLE_EQ(c.shared_reads, 206.0 / 200 * 14 / 8 + 206.0 / 200);
  // Fewer fetches than the tiled one-dispatch blur at every radius: its apron is paid once a strip.
  const Method* fused = find_gaussian_method("comp.separable_fused");
  ASSERT_NE(fused, nullptr);
  for (int r : {1, 2, 4, 8, 13}) EXPECT_LT(cost_at(*stream, r).fetches, cost_at(*fused, r).fetches) << r;
}

// comp.separable_stream dispatches one wave: 5 groups per shader core where the driver reports
// its cores (the H100's 132 SMs give the 660 measured best there), 660 where it does not, shared
// by the strips across; never fewer than one group a strip, nor strips under 32 rows.
TEST(Kernel, StreamedSeparableBlurDispatchesOneWave) {
  using Groups = std::pair<uint32_t, uint32_t>;
  EXPECT_EQ(separable_stream_groups({3840, 2160}, 132), Groups(60, 11));
  EXPECT_EQ(separable_stream_groups({3840, 2160}, 0), Groups(60, 11));
  EXPECT_EQ(separable_stream_groups({3840, 2160}, 128), Groups(60, 10));
  EXPECT_EQ(separable_stream_groups({3840, 2160}, 46), Groups(60, 3));
  EXPECT_EQ(separable_stream_groups({1920, 1080}, 132), Groups(30, 22));
  EXPECT_EQ(separable_stream_groups({3841, 2160}, 8), Groups(61, 1));  // 40 groups: one a strip
  EXPECT_EQ(separable_stream_groups({65, 521}, 0), Groups(2, 16));     // strips of 32 rows or more
  EXPECT_EQ(separable_stream_groups({3, 17}, 132), Groups(1, 1));
}

// comp.separable_fused reports its design (32 KiB tiles): per 32 x 8K output tile, K as large as
// (8K + 2r) rows of 33 + 2r vec4 allow, (32 + 2r)(8K + 2r) texels fetched and staged once,
// 32 (8K + 2r) horizontal sums stored once, each run of RUN sums reading 2r + RUN staged texels,
// each thread's K outputs reading 2r + K sums.
TEST(Kernel, MethodTableCostOfTheFusedSeparableBlur) {
  const Method* fused = find_gaussian_method("comp.separable_fused");
  ASSERT_NE(fused, nullptr);
  EXPECT_EQ(fused->passes, 1);
  // r = 1: one row per thread (the measured best at r = 1), so 32x8 outputs, 10 rows of 34 texels,
  // runs of 2 sums (160 tasks, one round: 4 reads per run); the vertical pass reads K + 2r = 3 sums
  // per output.
  MethodCost c = cost_at(*fused, 1);
  EXPECT_DOUBLE_EQ(c.fetches, 34.0 * 10 / (32 * 8));
  EXPECT_DOUBLE_EQ(c.shared_writes, 34.0 * 10 / (32 * 8) + 10.0 / 8);
  EXPECT_DOUBLE_EQ(c.shared_reads, 10.0 / 8 * 4 / 2 + 3.0 / 1);
  // r = 8: 32x24 outputs (K = 3: 40 x 49 x 16 = 31360 bytes), 40 rows of 48 texels, runs of 8 sums
  // (160 tasks, one round).
  c = cost_at(*fused, 8);
  EXPECT_DOUBLE_EQ(c.fetches, 48.0 * 40 / 768);
  EXPECT_DOUBLE_EQ(c.shared_writes, 48.0 * 40 / 768 + 40.0 / 24);
  EXPECT_DOUBLE_EQ(c.shared_reads, 40.0 / 24 * 24 / 8 + 19.0 / 3);
  // r = 13, the last radius that fits 32 KiB: 32x8 outputs (K = 1), 34 rows of 58 texels.
  c = cost_at(*fused, 13);
  EXPECT_DOUBLE_EQ(c.fetches, 58.0 * 34 / 256);
  // One fetch per pixel plus the apron: more than a copy, far below the two-pass fragment blur.
  for (int r = 1; r <= kMaxRadius; ++r) {
    EXPECT_GT(cost_at(*fused, r).fetches, 1.0) << r;
    EXPECT_LT(cost_at(*fused, r).fetches, 4.0 * r + 2) << r;
  }
}

TEST(Reference, SeparableEqualsDirect2d) {
  const ImageF img = random_image(13, 7, 3, 1234);
  for (KernelType t : kAllTypes) {
    const auto w = weights_of(t, 3);
    const ImageD sep = reference_blur(img, w), full = reference_blur_2d(img, w);
    ASSERT_EQ(sep.pixels.size(), full.pixels.size());
    for (size_t i = 0; i < sep.pixels.size(); ++i) ASSERT_NEAR(sep.pixels[i], full.pixels[i], 1e-12) << i;
    EXPECT_LT(compare(img, sep).max_abs, 1.0);  // sanity: compare accepts the pair
  }
}

TEST(Reference, ConstantImageStaysConstant) {
  ImageF img{10, 4, 2, std::vector<float>(80, 0.375f)};
  for (KernelType t : kAllTypes) {
    const ImageD out = reference_blur(img, weights_of(t, 5));  // r > height: the clamp is exercised
    for (double v : out.pixels) ASSERT_NEAR(v, 0.375, 1e-15);
  }
}

TEST(Reference, CompareFindsPlantedError) {
  ImageF actual = random_image(16, 9, 3, 99);
  ImageD expected{actual.width, actual.height, actual.channels,
                  std::vector<double>(actual.pixels.begin(), actual.pixels.end())};
  EXPECT_EQ(compare(actual, expected).max_abs, 0.0);
  expected.pixels[(size_t(3) * 16 + 5) * 3 + 1] += 0.25;    // (5, 3, c = 1)
  expected.pixels[(size_t(7) * 16 + 12) * 3 + 2] -= 0.125;  // (12, 7, c = 2)
  ErrorStats e = compare(actual, expected);
  EXPECT_EQ(e.max_abs, 0.25);
  EXPECT_EQ(e.worst_x, 5u);
  EXPECT_EQ(e.worst_y, 3u);
  EXPECT_EQ(e.worst_c, 1u);
  EXPECT_DOUBLE_EQ(e.mse, (0.25 * 0.25 + 0.125 * 0.125) / (16.0 * 9 * 3));
  // A region that excludes (5, 3) finds the second error.
  e = compare(actual, expected, Roi{8, 4, 8, 5});
  EXPECT_EQ(e.max_abs, 0.125);
  EXPECT_EQ(e.worst_x, 12u);
  EXPECT_EQ(e.worst_y, 7u);
  EXPECT_EQ(e.worst_c, 2u);
  // Only the common channels are compared.
  ImageF one_channel = random_image(16, 9, 1, 5);
  EXPECT_EQ(compare(one_channel, expected).worst_c, 0u);
  // NaN is never a pass.
  actual.pixels[0] = std::numeric_limits<float>::quiet_NaN();
  EXPECT_TRUE(std::isinf(compare(actual, expected).max_abs));
  EXPECT_THROW(compare(actual, expected, Roi{10, 0, 7, 1}), std::invalid_argument);
  EXPECT_THROW(compare(random_image(15, 9, 3, 1), expected), std::invalid_argument);
}

TEST(Reference, Ssim) {
  const ImageF a = random_image(32, 24, 2, 1), b = random_image(32, 24, 2, 2);
  EXPECT_EQ(ssim(a, a, 0), 1.0);
  EXPECT_EQ(ssim(a, a, 1), 1.0);
  EXPECT_DOUBLE_EQ(ssim(a, b, 0), ssim(b, a, 0));
  EXPECT_LT(std::abs(ssim(a, b, 0)), 0.1);  // independent noise: structurally unrelated
  // A blurred copy is closer to the original than unrelated noise, but not identical.
  const ImageD blurred = reference_blur(a, weights_of(KernelType::Binomial, 1));
  ImageF af{a.width, a.height, a.channels, std::vector<float>(blurred.pixels.begin(), blurred.pixels.end())};
  const double s = ssim(a, af, 0);
  EXPECT_GT(s, 0.2);
  EXPECT_LT(s, 1.0);
  EXPECT_THROW(ssim(a, a, 2), std::invalid_argument);
  EXPECT_THROW(ssim(random_image(10, 30, 1, 1), random_image(10, 30, 1, 1), 0), std::invalid_argument);
}

TEST(Reference, RandomImageIsDeterministic) {
  const ImageF a = random_image(7, 5, 3, 42);
  ASSERT_EQ(a.pixels.size(), 105u);
  EXPECT_EQ(a.pixels, random_image(7, 5, 3, 42).pixels);
  EXPECT_NE(a.pixels, random_image(7, 5, 3, 43).pixels);
  for (float v : a.pixels) {
    EXPECT_GE(v, 0.0f);
    EXPECT_LT(v, 1.0f);
  }
  // std::mt19937's first output for the default seed 5489 is fixed by the standard: 3499211612.
  EXPECT_EQ(random_image(1, 1, 1, 5489).pixels[0], float(3499211612u >> 8) / 16777216.0f);
}
