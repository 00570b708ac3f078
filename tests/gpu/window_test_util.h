#pragma once
// Helpers for the window tests (window_test.cpp, window_ui_test.cpp): they run the app in-process
// under an X server (xvfb-run) with validation on.
#include "gpu_test_util.h"
#include "io/image_io.h"
#include "window_app.h"

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <string>

namespace filterlab::test {

inline bool have_display() {
  const char* display = std::getenv("DISPLAY");
  return display && *display;
}

#define SKIP_WITHOUT_DISPLAY()                                                                      \
  if (!::filterlab::test::have_display())                                                           \
  GTEST_SKIP() << "no DISPLAY: the window tests need an X server, e.g. xvfb-run -a -s \"-screen 0 " \
                  "1280x1024x24\" filterlab_gpu_tests --gtest_filter='Window*'"

// Runs `body` with stderr captured, so teardown messages printed after the counter was read
// (vkDestroyDevice reports leaked objects) still fail the test.
inline std::string with_stderr_captured(const std::function<void()>& body) {
  testing::internal::CaptureStderr();
  try {
    body();
  } catch (...) {
    std::fputs(testing::internal::GetCapturedStderr().c_str(), stderr);
    throw;
  }
  return testing::internal::GetCapturedStderr();
}

// Runs the window app, stderr captured, and expects no validation message: neither counted by the
// app nor printed (teardown's included).
inline app::WindowResult run_window_without_messages(const runtime::RunOptions& run,
                                                     const app::WindowOptions& window) {
  app::WindowResult r;
  const std::string messages = with_stderr_captured([&] { r = app::run_window_app(run, window); });
  EXPECT_EQ(r.validation_messages, 0u);
  EXPECT_EQ(messages.find("validation"), std::string::npos) << messages;
  return r;
}

inline double green_variance(const io::ImageU8& image) {
  double sum = 0, sum2 = 0;
  const size_t n = size_t(image.width) * image.height;
  for (size_t i = 0; i < n; ++i) {
    const double g = image.rgba[4 * i + 1];
    sum += g;
    sum2 += g * g;
  }
  const double mean = sum / double(n);
  return sum2 / double(n) - mean * mean;
}

// The window without the panel and with the build's SPIR-V: what it presents is then exactly the
// graph's "final" image, which these tests compare with the headless runner's.
inline app::WindowOptions presentation_only() {
  app::WindowOptions window;
  window.show_ui = false;
  window.hot_reload = false;
  return window;
}

inline int max_abs_difference(const io::ImageU8& a, const io::ImageU8& b) {
  int worst = 0;
  for (size_t i = 0; i < a.rgba.size(); ++i)
    worst = std::max(worst, std::abs(int(a.rgba[i]) - int(b.rgba[i])));
  return worst;
}

}  // namespace filterlab::test
