#include "bench/clock_watch.h"

#include <algorithm>

namespace filterlab::bench {

namespace {

double median(std::vector<double> v) {
  std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
  return v[v.size() / 2];
}

}  // namespace

void ClockWatch::observe(double probe_us) {
  if (!(probe_us > 0)) return;  // no stamp this frame
  recent_.push_back(probe_us);
  if (recent_.size() > kSettleFrames) recent_.erase(recent_.begin());
  // The fastest of the medians, so that one stray probe does not set the bar. A clock still rising
  // lowers it window after window: kSettleFrames probes must pass without a gain of kClockBand / 2.
  ++since_gain_;
  if (recent_.size() == kSettleFrames) {
    const double m = median(recent_);
    if (fastest_us_ == 0 || m < fastest_us_ * (1.0 - kClockBand / 2)) since_gain_ = 0;
    if (fastest_us_ == 0 || m < fastest_us_) fastest_us_ = m;
  }
}

void ClockWatch::end_case(double median_probe_us) {
  if (median_probe_us > 0 && (fastest_us_ == 0 || median_probe_us < fastest_us_))
    fastest_us_ = median_probe_us;
}

bool ClockWatch::settled() const {
  return recent_.size() == kSettleFrames && since_gain_ >= kSettleFrames &&
         median(recent_) <= fastest_us_ * (1.0 + kClockBand);
}

double ClockWatch::clock_share(double probe_us) const {
  return probe_us > 0 && fastest_us_ > 0 ? fastest_us_ / probe_us : 0.0;
}

}  // namespace filterlab::bench
