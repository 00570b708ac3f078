#include "ui/timing_history.h"

#include <algorithm>

namespace filterlab::app {

template <typename T>
void TimingHistory::push(std::deque<T>& values, T v) const {
  values.push_back(std::move(v));
  while (values.size() > window_) values.pop_front();
}

void TimingHistory::add_frame(const std::vector<graph::PassTiming>& passes, double cpu_frame_ms) {
  order_.clear();
  idle_.clear();
  double total = 0;
  for (const graph::PassTiming& p : passes) {
    (p.idle ? idle_ : order_).push_back(p.name);
    push(gpu_ms_[p.name], p.idle ? std::nullopt : std::optional(p.gpu_ms));
    if (!p.idle) total += p.gpu_ms;
  }
  // Passes that left the graph keep no history: a pass that comes back starts afresh. An idle
  // pass is still in the graph and keeps its own.
  auto in_frame = [&](const std::string& name) {
    return std::find(order_.begin(), order_.end(), name) != order_.end() ||
           std::find(idle_.begin(), idle_.end(), name) != idle_.end();
  };
  for (auto it = gpu_ms_.begin(); it != gpu_ms_.end();)
    it = in_frame(it->first) ? std::next(it) : gpu_ms_.erase(it);
  push(gpu_total_, total);
  push(cpu_frame_, cpu_frame_ms);
}

void TimingHistory::clear() {
  gpu_ms_.clear();
  gpu_total_.clear();
  cpu_frame_.clear();
  order_.clear();
  idle_.clear();
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

std::deque<double> TimingHistory::busy(const std::deque<std::optional<double>>& frames) {
  std::deque<double> out;
  for (const std::optional<double>& ms : frames)
    if (ms) out.push_back(*ms);
  return out;
}

RollingStats TimingHistory::pass_stats(const std::string& pass) const {
  auto it = gpu_ms_.find(pass);
  return it == gpu_ms_.end() ? RollingStats{} : stats(busy(it->second));
}

std::vector<float> TimingHistory::pass_history(const std::string& pass) const {
  auto it = gpu_ms_.find(pass);
  if (it == gpu_ms_.end()) return {};
  const std::deque<double> times = busy(it->second);
  return std::vector<float>(times.begin(), times.end());
}

std::string elide_middle(const std::string& name, size_t max_chars) {
  constexpr size_t kDots = 3;
  if (name.size() <= max_chars) return name;
  if (max_chars <= kDots) return name.substr(0, max_chars);
  const size_t kept = max_chars - kDots, tail = kept / 2, head = kept - tail;
  return name.substr(0, head) + "..." + name.substr(name.size() - tail);
}

}  // namespace filterlab::app
