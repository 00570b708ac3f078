// bigblur's designs (renderer/filters/bigblur/design.h), on the CPU.
#include "filters/bigblur/design.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

using namespace filterlab::filters::bigblur;

TEST(BigblurDesign, ThePoissonDiskKeepsItsMinimumDistanceAndStaysInTheUnitDisk) {
  for (int n = 1; n <= BIGBLUR_MAX_SAMPLES; ++n) {
    const auto disk = poisson_disk(n);
    ASSERT_EQ(int(disk.size()), n);
    double nearest = INFINITY;
    for (size_t i = 0; i < disk.size(); ++i) {
      EXPECT_LE(std::hypot(disk[i][0], disk[i][1]), 1.0);
      for (size_t j = 0; j < i; ++j)
        nearest = std::min(nearest, std::hypot(disk[i][0] - disk[j][0], disk[i][1] - disk[j][1]));
    }
    if (n > 1) {
      EXPECT_GE(nearest, poisson_min_distance(n)) << n << " points";
    }
  }
}

TEST(BigblurDesign, ThePoissonWeightsSumToOneAndTheLevelsCoverTheLod) {
  for (double sigma : {1.0, 4.0, 64.0, 256.0})
    for (int n : {1, 8, 64}) {
      const PoissonDesign d = poisson_design(sigma, n);
      double sum = 0;
      for (const auto& p : d.disk) {
        sum += p[2];
        EXPECT_LE(std::hypot(p[0], p[1]), d.radius * (1 + 1e-6));
      }
      EXPECT_NEAR(sum, 1.0, 1e-6);
      EXPECT_GE(d.lod, 0.0);
      EXPECT_EQ(d.levels, int(std::floor(d.lod)) + 1);
      const PoissonDesign one = poisson_design(sigma, n, false);
      EXPECT_EQ(one.lod, std::round(one.lod));
      EXPECT_EQ(one.fine, one.coarse);
      EXPECT_EQ(one.levels, one.fine);
    }
}

// The recursion's gains: a constant passes unchanged (the steady states and the scale agree).
TEST(BigblurDesign, TheRecursiveGaussianPassesAConstant) {
  for (double sigma : {1.0, 8.0, 256.0}) {
    const auto k = recursive_coefficients(sigma);
    double total = 0;
    for (int s = 0; s < 2; ++s) total += k.anticausal[4 * s + 2] + k.anticausal[4 * s + 3];
    EXPECT_NEAR(total * k.inv_scale, 1.0, 1e-5) << sigma;
  }
}

TEST(BigblurDesign, TheChainsPickTheLevelsClosestToSigma) {
  for (Chain chain : {Chain::Dual, Chain::Cod13}) {
    EXPECT_LT(chain_sigma(chain, 1), chain_sigma(chain, 2));
    for (double sigma : {4.0, 16.0, 256.0}) {
      const int k = chain_levels(chain, sigma);
      for (int other : {k - 1, k + 1}) {
        if (other < 1) continue;
        EXPECT_LE(std::abs(std::log(chain_sigma(chain, k) / sigma)),
                  std::abs(std::log(chain_sigma(chain, other) / sigma)));
      }
    }
  }
}

TEST(BigblurDesign, TheExactKernelIsNormalizedAndSpansFourSigma) {
  const auto w = exact_weights(2.5);
  ASSERT_EQ(w.size(), 11u);  // r = ceil(10)
  double sum = w[0];
  for (size_t i = 1; i < w.size(); ++i) sum += 2 * w[i];
  EXPECT_NEAR(sum, 1.0, 1e-15);
  EXPECT_EQ(exact_radius(256), BIGBLUR_MAX_RADIUS);
}
