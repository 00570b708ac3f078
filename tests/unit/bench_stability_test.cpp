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

// Within one run: a case whose frames step between levels is unsteady (issue #36: fft.vkfft's
// frames went from about 3684 to 1043 us partway through a case on the H100).
using filterlab::bench::kMaxOffLevel;
using filterlab::bench::unsteady;
using filterlab::runtime::kLevelBand;
using filterlab::runtime::summarize;

namespace {
// n frames at `level`, scattered by up to +-2% in a fixed pattern.
std::vector<double> frames_at(double level, size_t n) {
  std::vector<double> v;
  for (size_t i = 0; i < n; ++i) v.push_back(level * (1.0 + 0.02 * double(int(i * 7 % 5) - 2) / 2.0));
  return v;
}
}  // namespace

TEST(BenchSteadiness, FramesAtOneLevelAreSteady) {
  EXPECT_FALSE(unsteady(summarize({})));
  const auto s = summarize(frames_at(1044.0, 50));
  EXPECT_EQ(s.off_level, 0.0);
  EXPECT_FALSE(unsteady(s));
  EXPECT_DOUBLE_EQ(kLevelBand, 0.10);
  EXPECT_DOUBLE_EQ(kMaxOffLevel, 0.10);
}

TEST(BenchSteadiness, AFewStrayFramesDoNotMakeACaseUnsteady) {
  std::vector<double> v = frames_at(1044.0, 50);
  v[10] = 1976.0;  // one frame between two levels, as the H100 showed at a step
  v[30] = 3000.0;
  const auto s = summarize(v);
  EXPECT_NEAR(s.off_level, 2.0 / 50.0, 1e-12);
  EXPECT_FALSE(unsteady(s));
}

TEST(BenchSteadiness, AStepBetweenLevelsIsFlagged) {
  // 40 frames at the slow level, then 10 at the fast one: the median is a slow frame, and the fast
  // fifth lies 72% below it.
  std::vector<double> v = frames_at(3684.0, 40);
  for (double us : frames_at(1043.0, 10)) v.push_back(us);
  const auto s = summarize(v);
  EXPECT_NEAR(s.off_level, 10.0 / 50.0, 1e-12);
  EXPECT_TRUE(unsteady(s));
  // The line: 5 of 50 frames off the level is steady, 6 is not; a frame just inside the band is on it.
  std::vector<double> edge = frames_at(1000.0, 50);
  for (size_t i = 0; i < 5; ++i) edge[i] = 1500.0;
  EXPECT_FALSE(unsteady(summarize(edge)));
  edge[5] = 1500.0;
  EXPECT_TRUE(unsteady(summarize(edge)));
  std::vector<double> inside = frames_at(1000.0, 50);
  for (size_t i = 0; i < 20; ++i) inside[i] = 1095.0;
  EXPECT_FALSE(unsteady(summarize(inside)));
}
