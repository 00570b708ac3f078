// The convolve family's host side, no GPU: the generated kernels, normalization, and direct.separable's
// decomposition (filters/convolve/decompose.h).
#include "common/reference.h"
#include "filters/chain.h"
#include "filters/convolve/decompose.h"
#include "filters/convolve/kernel.h"
#include "vkfft/fft_plan.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace filterlab;
namespace cv = filterlab::filters::convolve;

namespace {

cv::Kernel kernel_of(const std::string& params) {
  return cv::make_kernel(filters::resolve(filters::parse_chain("convolve:" + params).at(0)).params);
}

// sum over terms of column(b) row(a), plane 0.
double rebuilt(const cv::SeparableTerms& t, int planes, int a, int b) {
  double v = 0;
  for (int k = 0; k < t.terms; ++k) v += t.columns[size_t(k) * planes][b] * t.rows[size_t(k) * planes][a];
  return v;
}

}  // namespace

TEST(ConvolveKernels, GeneratedKernelsAreNormalizedSymmetricAndCentred) {
  for (const char* shape : {"disk", "hexagon", "star", "gaussian"}) {
    SCOPED_TRACE(shape);
    const cv::Kernel k = kernel_of(std::string("kernel=") + shape + ":radius=6");
    ASSERT_EQ(k.width, 13);
    ASSERT_EQ(k.planes, 1);
    double sum = 0;
    for (double v : k.values) sum += v;
    EXPECT_NEAR(sum, 1.0, 1e-12);
    for (int b = 0; b < 13; ++b)
      for (int a = 0; a < 13; ++a) {
        EXPECT_NEAR(k.at(0, a, b), k.at(0, 12 - a, 12 - b), 1e-15);  // point symmetric about (6, 6)
        EXPECT_LE(k.at(0, a, b), k.at(0, 6, 6) + 1e-15);             // the centre is the largest
      }
  }
  // The disk covers its corners not at all and its centre fully (before normalization).
  const cv::Kernel disk = cv::generated_kernel("disk", 6, 1, 6);
  EXPECT_EQ(disk.at(0, 0, 0), 0.0);
  EXPECT_EQ(disk.at(0, 6, 6), 1.0);
  EXPECT_EQ(kernel_of("kernel=disk:radius=6:normalize=false").at(0, 6, 6), 1.0);
}

TEST(ConvolveDecomposition, AGaussianIsOneTermAndAnyKernelIsRebuiltByItsTerms) {
  const cv::Kernel gaussian = kernel_of("kernel=gaussian:radius=5");
  const cv::SeparableTerms one = cv::separable_terms(gaussian, 1e-12, 32);
  EXPECT_EQ(one.terms, 1);
  EXPECT_LE(one.residual, 1e-12);

  // A random 9 x 7 kernel: rank 7; its 7 terms rebuild it to rounding.
  cv::Kernel random;
  random.width = 9;
  random.height = 7;
  const io::ImageF values = common::random_image(9, 7, 1, 21);
  random.values.assign(values.pixels.begin(), values.pixels.end());
  const cv::SeparableTerms all = cv::separable_terms(random, 1e-12, 32);
  EXPECT_EQ(all.terms, 7);
  for (int b = 0; b < 7; ++b)
    for (int a = 0; a < 9; ++a) EXPECT_NEAR(rebuilt(all, 1, a, b), random.at(0, a, b), 1e-12);

  // With a bound, the fewest terms whose residual's L1 norm meets it, and that norm is what is left.
  for (double bound : {1.0, 0.3, 0.05}) {
    SCOPED_TRACE(bound);
    const cv::SeparableTerms some = cv::separable_terms(random, bound, 32);
    double left = 0;
    for (int b = 0; b < 7; ++b)
      for (int a = 0; a < 9; ++a) left += std::abs(random.at(0, a, b) - rebuilt(some, 1, a, b));
    EXPECT_LE(left, bound);
    EXPECT_NEAR(left, some.residual, 1e-12);
    if (some.terms > 0) {
      const cv::SeparableTerms fewer = cv::separable_terms(random, 0, some.terms - 1);
      EXPECT_GT(fewer.residual, bound) << "one term fewer would have done";
    }
  }
  // More terms than allowed: the count is said, the terms are capped.
  const cv::SeparableTerms capped = cv::separable_terms(random, 1e-12, 3);
  EXPECT_EQ(capped.needed, 7);
  EXPECT_EQ(capped.terms, 3);
}

// fft.vkfft's transform size: the smallest even, 7-smooth size at least what was asked. At 4K the
// 3 x 3 disk's height is 2240, not 3^7 = 2187: odd lengths measured far slower on the H100
// (docs/families/convolve.md).
TEST(ConvolveTransformSize, IsTheSmallestEvenSmoothSizeAtLeastTheImage) {
  auto even_smooth = [](uint32_t n) {
    if (n == 0 || n % 2 != 0) return false;
    for (uint32_t p : {2u, 3u, 5u, 7u})
      while (n % p == 0) n /= p;
    return n == 1;
  };
  for (uint32_t at_least = 0; at_least <= 5000; ++at_least) {
    const uint32_t n = vkfft::good_size(at_least);
    ASSERT_GE(n, at_least);
    ASSERT_TRUE(even_smooth(n)) << n;
    for (uint32_t m = at_least; m < n; ++m) ASSERT_FALSE(even_smooth(m)) << m << " is smaller than " << n;
  }
  EXPECT_EQ(vkfft::good_size(3840 + 2), 3888u);  // the 3 x 3 disk at 4K
  EXPECT_EQ(vkfft::good_size(2160 + 2), 2240u);
  EXPECT_EQ(vkfft::good_size(3840 + 64), 3920u);  // the 65 x 65 disk
  EXPECT_EQ(vkfft::good_size(2160 + 64), 2240u);
  EXPECT_EQ(vkfft::good_size(9), 10u);
}
