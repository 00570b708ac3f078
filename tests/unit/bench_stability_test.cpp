// The bench's stability check (bench::stability, `bench --repeat N`): a case timed N times, each
// with its own allocations, is unstable when its medians spread more than 10% (issue #36: the FFT
// convolution once ran 1044 us in a fresh process and 2252 us after other families). Synthetic
// medians on each side of the line.
#include "bench/bench.h"

#include <gtest/gtest.h>

using filterlab::bench::kMaxSpread;
using filterlab::bench::stability;

TEST(BenchStability, OneRunHasNoSpread) {
  EXPECT_EQ(stability({1044.0}).spread, 0.0);
  EXPECT_FALSE(stability({1044.0}).unstable);
  EXPECT_FALSE(stability({}).unstable);
}

TEST(BenchStability, ASpreadUnderTenPercentIsStable) {
  const auto s = stability({1044.0, 1045.0, 1100.0});
  EXPECT_NEAR(s.spread, 56.0 / 1044.0, 1e-12);
  EXPECT_FALSE(s.unstable);
}

TEST(BenchStability, ASpreadOverTenPercentIsFlagged) {
  const auto s = stability({1044.0, 2252.0, 1045.0});
  EXPECT_NEAR(s.spread, (2252.0 - 1044.0) / 1044.0, 1e-12);
  EXPECT_TRUE(s.unstable);
  // Just past the line, in any order.
  EXPECT_TRUE(stability({111.0, 100.0}).unstable);
  EXPECT_FALSE(stability({110.0, 100.0}).unstable);
  EXPECT_DOUBLE_EQ(kMaxSpread, 0.10);
}
