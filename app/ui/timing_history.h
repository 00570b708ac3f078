#pragma once
// Rolling per-pass GPU times for the timings table: the last N frames of each pass, by name, in
// the order of the latest frame (passes come and go when the chain changes).
#include "graph/executor.h"

#include <deque>
#include <map>
#include <string>
#include <vector>

namespace filterlab::app {

struct RollingStats {
  double mean = 0, min = 0, max = 0, last = 0;
  size_t count = 0;
};

class TimingHistory {
 public:
  explicit TimingHistory(size_t window = 120) : window_(window) {}

  // One finished frame: its passes' timings and the CPU time between this frame and the previous.
  void add_frame(const std::vector<graph::PassTiming>& passes, double cpu_frame_ms);
  void clear();

  const std::vector<std::string>& pass_order() const { return order_; }
  RollingStats pass_stats(const std::string& pass) const;
  std::vector<float> pass_history(const std::string& pass) const;  // oldest first, for plots
  RollingStats gpu_total() const { return stats(gpu_total_); }
  RollingStats cpu_frame() const { return stats(cpu_frame_); }
  size_t window() const { return window_; }

 private:
  static RollingStats stats(const std::deque<double>& values);
  static std::vector<float> floats(const std::deque<double>& values);
  void push(std::deque<double>& values, double v) const;

  size_t window_;
  std::map<std::string, std::deque<double>> gpu_ms_;
  std::deque<double> gpu_total_, cpu_frame_;
  std::vector<std::string> order_;
};

}  // namespace filterlab::app
