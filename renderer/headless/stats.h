#pragma once
#include <cstddef>
#include <vector>

namespace filterlab::headless {

struct Summary {
  double median = 0, p5 = 0, p95 = 0, min = 0, max = 0;
  size_t count = 0;
};

// Percentiles by linear interpolation between order statistics.
Summary summarize(std::vector<double> samples);

}  // namespace filterlab::headless
