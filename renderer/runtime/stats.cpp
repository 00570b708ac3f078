#include "runtime/stats.h"

#include <algorithm>
#include <cmath>

namespace filterlab::runtime {

Summary summarize(std::vector<double> samples) {
  Summary s;
  s.count = samples.size();
  if (samples.empty()) return s;
  std::sort(samples.begin(), samples.end());
  auto percentile = [&](double q) {
    const double pos = q * static_cast<double>(samples.size() - 1);
    const size_t lo = static_cast<size_t>(std::floor(pos));
    const size_t hi = std::min(lo + 1, samples.size() - 1);
    return samples[lo] + (samples[hi] - samples[lo]) * (pos - static_cast<double>(lo));
  };
  s.median = percentile(0.5);
  s.p5 = percentile(0.05);
  s.p95 = percentile(0.95);
  s.min = samples.front();
  s.max = samples.back();
  // A level is a positive time; samples around a median of 0 (passes that did no work) have none.
  if (s.median > 0) {
    const double band = kLevelBand * s.median;
    s.off_level = size_t(std::count_if(samples.begin(), samples.end(),
                                       [&](double v) { return std::abs(v - s.median) > band; }));
  }
  return s;
}

}  // namespace filterlab::runtime
