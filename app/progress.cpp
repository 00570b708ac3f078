#include "progress.h"

#include <unistd.h>

#include <cstdio>

namespace filterlab::app {

ProgressLine::ProgressLine(size_t total, bool quiet)
    : total_(total), quiet_(quiet), tty_(::isatty(STDERR_FILENO) != 0) {}

void ProgressLine::finish() {
  if (open_) std::fprintf(stderr, "\n");
  open_ = false;
}

void ProgressLine::step(const std::string& label) {
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const double left = done_ ? elapsed / double(done_) * double(total_ - done_) : 0.0;
  ++done_;
  print(done_, label, elapsed, left);
}

void ProgressLine::print(size_t index, const std::string& label, double elapsed_s, double left_s) {
  if (quiet_) return;
  open_ = tty_;
  std::fprintf(stderr, "%s[%zu/%zu] %-48s %6.0f s elapsed, ~%.0f s left%s", tty_ ? "\r\033[K" : "", index,
               total_, label.c_str(), elapsed_s, left_s, tty_ ? "" : "\n");
}

}  // namespace filterlab::app
