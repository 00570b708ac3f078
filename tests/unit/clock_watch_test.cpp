// bench's clock watch (bench/clock_watch.h): a case's warm-up waits until its probe, one warp's chain
// of multiply-adds timed after each frame, runs within 5% of the fastest the process has seen. The
// probe times below are the H100's (call e19, 2026-11-28): 46.5 us at 1980 MHz, and the steps of
// fft.vkfft's slow cases.
#include "bench/clock_watch.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

using filterlab::bench::ClockWatch;
using filterlab::bench::kSettleFrames;

namespace {

void feed(ClockWatch& watch, double probe_us, size_t frames) {
  for (size_t i = 0; i < frames; ++i) watch.observe(probe_us);
}

}  // namespace

TEST(ClockWatch, NoVerdictBeforeEnoughFrames) {
  ClockWatch watch;
  feed(watch, 46.5, kSettleFrames - 1);
  EXPECT_FALSE(watch.settled());
  watch.observe(46.5);
  EXPECT_FALSE(watch.settled()) << "the first window sets the bar: it must hold a window more";
  feed(watch, 46.5, kSettleFrames);
  EXPECT_TRUE(watch.settled());
  EXPECT_DOUBLE_EQ(watch.fastest_us(), 46.5);
}

TEST(ClockWatch, ACaseAtALowerStepWaitsForTheTopClock) {
  ClockWatch watch;
  feed(watch, 46.5, 20);  // the copies: the top clock
  for (double step : {245.0, 180.0, 132.0, 116.0, 70.0, 57.4, 52.8}) {
    watch.start_case();
    feed(watch, step, 20);
    EXPECT_FALSE(watch.settled()) << step << " us: " << 46.5 / step << " of the clock";
  }
  watch.start_case();
  feed(watch, 48.5, 20);  // within 5%
  EXPECT_TRUE(watch.settled());
  EXPECT_NEAR(watch.clock_share(48.5), 46.5 / 48.5, 1e-12);
}

TEST(ClockWatch, ARampSettlesOnceItsLastFramesAreThere) {
  ClockWatch watch;
  feed(watch, 46.5, kSettleFrames);
  watch.start_case();
  feed(watch, 116.0, 10);
  feed(watch, 47.0, kSettleFrames / 2);
  EXPECT_FALSE(watch.settled()) << "half the window still at the slow step";
  feed(watch, 47.0, kSettleFrames / 2 + 1);
  EXPECT_TRUE(watch.settled());
}

TEST(ClockWatch, OneStrayFastProbeDoesNotSetTheBar) {
  ClockWatch watch;
  feed(watch, 46.5, 10);
  watch.observe(20.0);
  feed(watch, 46.5, 10);
  EXPECT_DOUBLE_EQ(watch.fastest_us(), 46.5);
  EXPECT_TRUE(watch.settled());
}

TEST(ClockWatch, TheFirstCaseWaitsWhileTheClockRises) {
  ClockWatch watch;
  for (double step : {245.0, 180.0, 116.0, 70.0, 52.8}) {
    feed(watch, step, kSettleFrames + 2);
    EXPECT_FALSE(watch.settled()) << step << " us: each window faster than the last";
  }
  feed(watch, 46.5, kSettleFrames + 2);
  EXPECT_FALSE(watch.settled());
  feed(watch, 46.5, kSettleFrames);
  EXPECT_TRUE(watch.settled()) << "a window with no gain";
}

TEST(ClockWatch, AFasterCaseRaisesTheBar) {
  ClockWatch watch;
  feed(watch, 57.4, 20);  // the first case ran below the top clock
  EXPECT_TRUE(watch.settled()) << "nothing faster seen yet";
  watch.start_case();
  feed(watch, 46.5, 20);
  EXPECT_DOUBLE_EQ(watch.fastest_us(), 46.5);
  EXPECT_NEAR(watch.clock_share(57.4), 46.5 / 57.4, 1e-12);
}

TEST(ClockWatch, ShortCasesSetTheBarByTheirMedians) {
  ClockWatch watch;
  feed(watch, 57.4, 3);
  EXPECT_EQ(watch.fastest_us(), 0.0) << "no full window yet";
  watch.end_case(57.4);
  EXPECT_DOUBLE_EQ(watch.fastest_us(), 57.4);
  watch.start_case();
  watch.end_case(46.5);
  EXPECT_DOUBLE_EQ(watch.fastest_us(), 46.5);
  watch.end_case(0.0);  // a case with no probe
  EXPECT_DOUBLE_EQ(watch.fastest_us(), 46.5);
}

// Whether an unsteady run's frames went with the clock (bench/clock_watch.h clock_correlation).
using filterlab::bench::clock_correlation;
using filterlab::bench::kClockFollows;

TEST(ClockCorrelation, FramesThatStepWithTheProbeFollowIt) {
  // Half the frames at a lower clock: the method and the probe both slower, with scatter of their own.
  std::vector<double> frames, probes;
  for (int i = 0; i < 50; ++i) {
    const bool slow = i % 4 < 2;
    frames.push_back((slow ? 1516.0 : 1034.0) + (i % 5) * 2.0);
    probes.push_back((slow ? 84.3 : 46.9) + (i % 3) * 0.2);
  }
  EXPECT_GT(clock_correlation(frames, probes), 0.99);
  EXPECT_GE(clock_correlation(frames, probes), kClockFollows);
}

TEST(ClockCorrelation, FramesThatStepWhileTheProbeHoldsDoNot) {
  // The same steps in the method, the probe at one clock with its own scatter, in no step with them.
  std::vector<double> frames, probes;
  for (int i = 0; i < 50; ++i) {
    frames.push_back(i % 4 < 2 ? 1197.0 : 1034.0);
    probes.push_back(72.6 + (i % 3) * 0.2);
  }
  EXPECT_LT(std::abs(clock_correlation(frames, probes)), 0.2);
  EXPECT_LT(clock_correlation(frames, probes), kClockFollows);
}

TEST(ClockCorrelation, NoAnswerWithoutPairsOrSpread) {
  EXPECT_EQ(clock_correlation({}, {}), 0.0);
  EXPECT_EQ(clock_correlation({1.0, 2.0}, {1.0, 2.0}), 0.0) << "fewer than 3 pairs";
  EXPECT_EQ(clock_correlation({1.0, 2.0, 3.0}, {1.0, 2.0}), 0.0) << "not paired";
  EXPECT_EQ(clock_correlation({1.0, 2.0, 3.0}, {5.0, 5.0, 5.0}), 0.0) << "a flat probe";
  EXPECT_NEAR(clock_correlation({1.0, 2.0, 3.0}, {2.0, 4.0, 6.0}), 1.0, 1e-12);
  EXPECT_NEAR(clock_correlation({1.0, 2.0, 3.0}, {6.0, 4.0, 2.0}), -1.0, 1e-12);
}
