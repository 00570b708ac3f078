#pragma once
// Rolling per-pass GPU times for the timings table: the last N frames of each pass, by name, in
// the order of the latest frame (passes come and go when the chain changes). A pass that recorded
// nothing in a frame (PassTiming::idle) has no time in that frame, rather than a near-zero one.
#include "graph/executor.h"

#include <deque>
#include <map>
#include <optional>
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

  // The passes that recorded work in the latest frame, in execution order.
  const std::vector<std::string>& pass_order() const { return order_; }
  // The passes idle in the latest frame, in execution order: listed apart, with no time.
  const std::vector<std::string>& idle_passes() const { return idle_; }
  // Over the frames of the window in which the pass recorded work (count: how many).
  RollingStats pass_stats(const std::string& pass) const;
  std::vector<float> pass_history(const std::string& pass) const;  // those frames, oldest first, for plots
  RollingStats gpu_total() const { return stats(gpu_total_); }
  RollingStats cpu_frame() const { return stats(cpu_frame_); }
  size_t window() const { return window_; }

 private:
  static RollingStats stats(const std::deque<double>& values);
  static std::deque<double> busy(const std::deque<std::optional<double>>& frames);  // the frames with work
  template <typename T>
  void push(std::deque<T>& values, T v) const;

  size_t window_;
  std::map<std::string, std::deque<std::optional<double>>> gpu_ms_;  // per frame; nullopt: idle
  std::deque<double> gpu_total_, cpu_frame_;
  std::vector<std::string> order_, idle_;
};

// A pass name as the timings table shows it, at most `max_chars` characters: a longer one keeps its
// head and its tail (where steps differ: "step.rows.states.blocks") around "...", so the table's
// columns stay in line; the table shows the whole name on hover.
std::string elide_middle(const std::string& name, size_t max_chars);

}  // namespace filterlab::app
