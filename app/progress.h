#pragma once
// A long command's progress on stderr, one line a step: "[3/24] label   12 s elapsed, ~40 s left",
// rewritten in place on a terminal and a line each otherwise (a log). bench, quality and evaluate
// say where they are with it; their results go to stdout.
#include <chrono>
#include <cstddef>
#include <string>

namespace filterlab::app {

class ProgressLine {
 public:
  ProgressLine(size_t total, bool quiet);
  ~ProgressLine() { finish(); }
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  // The step about to start; the estimate is the elapsed time a step so far times those left.
  void step(const std::string& label);
  // A line as bench's own progress reports it (its estimate is its own; a total that grows as the
  // command finds more to do, tune's, comes with it).
  void print(size_t index, const std::string& label, double elapsed_s, double left_s);
  void print(size_t index, size_t total, const std::string& label, double elapsed_s, double left_s) {
    total_ = total;
    print(index, label, elapsed_s, left_s);
  }
  // Ends the line on a terminal, before the results are printed.
  void finish();

 private:
  size_t total_, done_ = 0;
  bool quiet_, tty_, open_ = false;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace filterlab::app
