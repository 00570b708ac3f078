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
  const double band = kLevelBand * std::abs(s.median);
  s.off_level = double(std::count_if(samples.begin(), samples.end(),
                                     [&](double v) { return std::abs(v - s.median) > band; })) /
                double(samples.size());
  return s;
}

}  // namespace filterlab::runtime
