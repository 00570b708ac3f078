#pragma once
#include <cstddef>
#include <vector>

namespace filterlab::runtime {

// How far from the median a sample may lie and still be at the median's level: frames of one level
// scatter by a few percent; a device that changes speed puts whole runs of frames further out.
inline constexpr double kLevelBand = 0.10;

struct Summary {
  double median = 0, p5 = 0, p95 = 0, min = 0, max = 0;
  size_t count = 0;
  size_t off_level = 0;  // how many samples lie further than kLevelBand from the median
  double off_level_share() const { return count ? double(off_level) / double(count) : 0.0; }
};

// Percentiles by linear interpolation between order statistics.
Summary summarize(std::vector<double> samples);

// One pass's times over the timed frames. A frame in which the pass recorded nothing
// (PassContext::skip) is counted apart: its timestamps bracket no work, and a 0 ms sample would
// pull the median down.
struct PassSamples {
  std::vector<double> gpu_ms, cpu_ms;
  size_t idle_frames = 0;
  void add(bool idle, double gpu, double cpu) {
    if (idle) {
      ++idle_frames;
      return;
    }
    gpu_ms.push_back(gpu);
    cpu_ms.push_back(cpu);
  }
};

}  // namespace filterlab::runtime
