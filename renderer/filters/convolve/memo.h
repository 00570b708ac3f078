#pragma once
// The last few results of a costly function of a step's parameters, by a key the caller spells: the
// window's panel resolves the step and asks for its support every frame, and a 255 x 255 kernel's
// file, generation or decomposition must not run each time (its SVD takes a second).
#include <map>
#include <mutex>
#include <string>

namespace filterlab::filters::convolve {

template <typename T>
class Memo {
 public:
  template <typename Make>
  T get(const std::string& key, Make make) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (auto it = kept_.find(key); it != kept_.end()) return it->second;
    }
    T value = make();  // may throw: nothing is kept then
    std::lock_guard<std::mutex> lock(mutex_);
    if (kept_.size() >= kKept) kept_.clear();
    kept_.emplace(key, value);
    return value;
  }

 private:
  static constexpr size_t kKept = 8;
  std::mutex mutex_;
  std::map<std::string, T> kept_;
};

}  // namespace filterlab::filters::convolve
