#include "bench/clock_watch.h"

#include <algorithm>
#include <cmath>

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

double clock_correlation(const std::vector<double>& frame_us, const std::vector<double>& probe_us) {
  const size_t n = frame_us.size();
  if (n < 3 || probe_us.size() != n) return 0.0;
  double mean_f = 0, mean_p = 0;
  for (size_t i = 0; i < n; ++i) mean_f += frame_us[i], mean_p += probe_us[i];
  mean_f /= double(n);
  mean_p /= double(n);
  double cov = 0, var_f = 0, var_p = 0;
  for (size_t i = 0; i < n; ++i) {
    const double f = frame_us[i] - mean_f, p = probe_us[i] - mean_p;
    cov += f * p;
    var_f += f * f;
    var_p += p * p;
  }
  return var_f > 0 && var_p > 0 ? cov / std::sqrt(var_f * var_p) : 0.0;
}

}  // namespace filterlab::bench
