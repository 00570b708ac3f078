#include "ui/timing_history.h"

#include <algorithm>

namespace filterlab::app {

void TimingHistory::push(std::deque<double>& values, double v) const {
  values.push_back(v);
  while (values.size() > window_) values.pop_front();
}

void TimingHistory::add_frame(const std::vector<graph::PassTiming>& passes, double cpu_frame_ms) {
  order_.clear();
  double total = 0;
  for (const graph::PassTiming& p : passes) {
    order_.push_back(p.name);
    push(gpu_ms_[p.name], p.gpu_ms);
    total += p.gpu_ms;
  }
  // Passes that left the graph keep no history: a pass that comes back starts afresh.
  for (auto it = gpu_ms_.begin(); it != gpu_ms_.end();)
    it = std::find(order_.begin(), order_.end(), it->first) == order_.end() ? gpu_ms_.erase(it) : std::next(it);
  push(gpu_total_, total);
  push(cpu_frame_, cpu_frame_ms);
}

void TimingHistory::clear() {
  gpu_ms_.clear();
  gpu_total_.clear();
  cpu_frame_.clear();
  order_.clear();
}

RollingStats TimingHistory::stats(const std::deque<double>& values) {
  RollingStats s;
  if (values.empty()) return s;
  s.count = values.size();
  s.min = s.max = values.front();
  double sum = 0;
  for (double v : values) {
    sum += v;
    s.min = std::min(s.min, v);
    s.max = std::max(s.max, v);
  }
  s.mean = sum / double(values.size());
  s.last = values.back();
  return s;
}

std::vector<float> TimingHistory::floats(const std::deque<double>& values) {
  return std::vector<float>(values.begin(), values.end());
}

RollingStats TimingHistory::pass_stats(const std::string& pass) const {
  auto it = gpu_ms_.find(pass);
  return it == gpu_ms_.end() ? RollingStats{} : stats(it->second);
}

std::vector<float> TimingHistory::pass_history(const std::string& pass) const {
  auto it = gpu_ms_.find(pass);
  return it == gpu_ms_.end() ? std::vector<float>{} : floats(it->second);
}

}  // namespace filterlab::app
