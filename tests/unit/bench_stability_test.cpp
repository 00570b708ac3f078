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

// Within one run: frames that step between levels make the case unsteady (issue #36: fft.vkfft's
// frames on the H100 stepped from one level to another partway through a run).
using filterlab::bench::kMaxOffLevel;
using filterlab::bench::kMinLevelFrames;
using filterlab::bench::unsteady;
using filterlab::runtime::kLevelBand;
using filterlab::runtime::summarize;

namespace {
// n frames at `level`, scattered by up to +-2% in a fixed pattern: as many at -2%, -1%, 0, +1% and +2%.
std::vector<double> frames_at(double level, size_t n) {
  std::vector<double> v;
  for (size_t i = 0; i < n; ++i) v.push_back(level * (1.0 + 0.02 * double(int(i * 7 % 5) - 2) / 2.0));
  return v;
}
}  // namespace

TEST(BenchSteadiness, FramesAtOneLevelAreSteady) {
  EXPECT_FALSE(unsteady(summarize({})));
  const auto s = summarize(frames_at(1044.0, 50));
  EXPECT_EQ(s.off_level, 0u);
  EXPECT_FALSE(unsteady(s));
  EXPECT_DOUBLE_EQ(kLevelBand, 0.10);
  EXPECT_DOUBLE_EQ(kMaxOffLevel, 0.10);
  EXPECT_EQ(kMinLevelFrames, 20u);
}

TEST(BenchSteadiness, AFewStrayFramesDoNotMakeACaseUnsteady) {
  std::vector<double> v = frames_at(1044.0, 50);
  v[10] = 1976.0;  // one frame between two levels, as at a step
  v[30] = 3000.0;
  const auto s = summarize(v);
  EXPECT_EQ(s.off_level, 2u);
  EXPECT_FALSE(unsteady(s));
}

TEST(BenchSteadiness, AStepBetweenLevelsIsFlagged) {
  // 40 frames at a slow level, then 10 at a fast one: the median is a slow frame, and the fast fifth
  // lies far below it.
  std::vector<double> v = frames_at(3684.0, 40);
  for (double us : frames_at(1043.0, 10)) v.push_back(us);
  const auto s = summarize(v);
  EXPECT_EQ(s.off_level, 10u);
  EXPECT_TRUE(unsteady(s));
  // The line: 5 of 50 frames off the level is steady, 6 is not.
  std::vector<double> edge = frames_at(1000.0, 50);
  for (size_t i = 0; i < 5; ++i) edge[i] = 1500.0;
  EXPECT_FALSE(unsteady(summarize(edge)));
  edge[5] = 1500.0;
  EXPECT_TRUE(unsteady(summarize(edge)));
}

TEST(BenchSteadiness, TheBandIsTenPercentOfTheMedian) {
  // Five frames (one of each scatter) moved to 1099 or 1101: the median stays 1000, and 1099 is
  // inside its band, 1101 outside.
  for (const double moved : {1099.0, 1101.0}) {
    std::vector<double> v = frames_at(1000.0, 50);
    for (size_t i = 0; i < 5; ++i) v[i] = moved;
    const auto s = summarize(v);
    EXPECT_DOUBLE_EQ(s.median, 1000.0);
    EXPECT_EQ(s.off_level, moved < 1100.0 ? 0u : 5u);
  }
}

TEST(BenchSteadiness, FewFramesGetNoVerdict) {
  // 19 frames, half of them far off: one stray frame would decide a verdict this small.
  std::vector<double> v = frames_at(1000.0, 10);
  for (double us : frames_at(2000.0, 9)) v.push_back(us);
  const auto s = summarize(v);
  EXPECT_GT(s.off_level_share(), kMaxOffLevel);
  EXPECT_FALSE(unsteady(s));
  v.push_back(2000.0);
  EXPECT_TRUE(unsteady(summarize(v)));
}

// An unsteady run's line says whether its frames went with the clock probe (issue #36: one of
// fft.vkfft's runs on the H100 held 23 of 50 frames 10-16% above the rest with its clock settled),
// on a GPU; a CPU device has no clock to name.
TEST(BenchSteadiness, TheUnsteadyLineSaysWhetherTheClockMoved) {
  filterlab::bench::BenchResult result;
  result.device.name = "GPU";
  result.device.device_type = "discrete";
  filterlab::bench::CaseResult c;
  c.filter = "convolve";
  c.method = "fft.vkfft";
  c.precision = "fp32";
  c.size = {3840, 2160};
  std::vector<double> v = frames_at(1034.0, 27);
  for (double us : frames_at(1190.0, 23)) v.push_back(us);
  c.gpu_us = c.least_steady_run = summarize(v);
  ASSERT_TRUE(unsteady(c.least_steady_run));
  c.least_steady_clock_correlation = 0.12;
  result.cases.push_back(c);
  std::string text = filterlab::bench::format_bench_table(result);
  EXPECT_NE(text.find("the median is of no one level; its frames did not follow the clock probe (correlation "
                      "0.12)"),
            std::string::npos)
      << text;
  result.cases[0].least_steady_clock_correlation = 0.97;
  text = filterlab::bench::format_bench_table(result);
  EXPECT_NE(text.find("; its frames went with the clock probe (correlation 0.97)"), std::string::npos)
      << text;
  result.device.device_type = "cpu";
  text = filterlab::bench::format_bench_table(result);
  EXPECT_NE(text.find("the median is of no one level\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("clock probe"), std::string::npos) << text;
}
