#pragma once
// The GPU's clock as bench sees it (issue #36). After every frame's method passes, bench times a
// probe (shaders/bench/clock_probe.comp): one warp's chain of dependent multiply-adds, whose time is
// the chain's cycles over the SM clock. Drivers drop the clock while the GPU idles, as it does while
// bench builds a case on the CPU (a method compiles its kernels, the reference is computed), and
// raise it again over seconds of load, in steps. On the H100 an FFT method's cases were each timed
// at one such step or another, where `run` (one graph, long) held the top one, and the probe's time
// went with the method's (bench/results/h100-2026-11-28-clock).
//
// So a case's warm-up also waits for the clock: until the median of its last kSettleFrames probes is
// within kClockBand of the process's fastest such median (the top clock seen), for at most
// kSettleLimitMs. Each case reports its clock as that fastest over its own median probe (1: the top).
#include <cstddef>
#include <vector>

namespace filterlab::bench {

inline constexpr double kClockBand = 0.05;
inline constexpr size_t kSettleFrames = 8;
inline constexpr double kSettleLimitMs = 4000;
// A run's frame times that follow its probes this closely (clock_correlation) moved with the clock.
inline constexpr double kClockFollows = 0.8;

class ClockWatch {
 public:
  // A new case: its probes so far are forgotten, the process's fastest is kept.
  void start_case() { recent_.clear(); }
  void observe(double probe_us);
  // A case's median probe over its timed frames: the fastest counts it too (a case of fewer frames
  // than kSettleFrames has no other).
  void end_case(double median_probe_us);
  // The median of the case's last kSettleFrames probes within kClockBand of the fastest median, and
  // the fastest not lowered by kClockBand / 2 over those probes (a clock still rising): false until
  // there are that many.
  bool settled() const;
  double fastest_us() const { return fastest_us_; }
  // The fastest probe over `probe_us` (a case's median): the clock as a share of the top one seen.
  double clock_share(double probe_us) const;

 private:
  std::vector<double> recent_;
  double fastest_us_ = 0;
  size_t since_gain_ = 0;  // probes since the fastest last fell by kClockBand / 2 or more
};

// How closely a run's frame times follow its probes, frame by frame: Pearson's r over the pairs.
// Near 1 where the clock moved the frames; near 0 where something else did, or nothing. 0 for
// fewer than 3 pairs, lists of different lengths, or either list flat.
double clock_correlation(const std::vector<double>& frame_us, const std::vector<double>& probe_us);

}  // namespace filterlab::bench
