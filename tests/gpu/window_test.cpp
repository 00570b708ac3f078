// GPU tier: the windowed app in-process, under an X server (xvfb-run), validation on. The window
// is driven deterministically (--frames, resize and minimize hooks, --screenshot), and what it
// presented is compared with the graph's "final" image and with the headless runner.
#include "gpu_test_util.h"

#include "filters/chain.h"
#include "io/image_io.h"
#include "window_app.h"
#include "window_test_util.h"

#include <cstdlib>
#include <functional>

using namespace filterlab;
using namespace filterlab::test;

TEST(Window, RendersThroughResizesAndAMinimizeAndPresentsExactlyTheHeadlessFinalImage) {
  SKIP_WITHOUT_DISPLAY();
  const std::string dir = test::temp_dir("window");
  runtime::RunOptions run = test::validated_run(320, 240);
  run.chain = "copy";
  run.captures = {{"final", dir + "/window-final.png"}};
  app::WindowOptions window = presentation_only();
  window.frames = 120;
  window.screenshot = dir + "/screenshot.png";
  window.test_resizes = {{40, {400, 300}}, {80, {256, 192}}};
  window.test_minimize_at = 60;
  window.test_minimize_waits = 6;

  const app::WindowResult r = run_window_without_messages(run, window);
  EXPECT_EQ(r.frames, 120u);
  EXPECT_EQ(r.present_mode, "fifo");  // the default
  EXPECT_TRUE(r.note.empty()) << r.note;

  // One build at the start and one per resize, with the new size, right after the resize (the
  // resized frame itself may still go out at the old size); none while minimized.
  auto built_near = [&](uint64_t frame, uint32_t w, uint32_t h) {
    for (const auto& [f, e] : r.builds)
      if ((f == frame || f == frame + 1) && e.width == w && e.height == h) return true;
    return false;
  };
  EXPECT_TRUE(built_near(0, 320, 240));
  EXPECT_TRUE(built_near(40, 400, 300));
  EXPECT_TRUE(built_near(80, 256, 192));
  EXPECT_EQ(r.builds.size(), 3u);
  for (const auto& [f, e] : r.builds) EXPECT_NE(f, 60u) << "rebuilt while minimized";
  EXPECT_EQ(r.graph_prepares, 3u);
  EXPECT_EQ(r.ui_framebuffers, r.graph_prepares)
      << "the UI pass makes a framebuffer per prepare, not per frame";
  // Mesa 22's lavapipe (Debian 12) reports the stale swapchain on its X11 surfaces (out of date or
  // suboptimal) for both resizes, so that path runs here. Mesa 25's (Debian 13) reports it for none,
  // one or both, as the timing falls: the size check catches the others first. Either way each
  // resize rebuilt once (above).
  if (r.device.driver_name == "llvmpipe" && r.device.driver_info.rfind("Mesa 22.", 0) == 0) {
    EXPECT_GE(r.out_of_date, 2u);
  }

  // Minimized: no frame rendered during the waits, and the waits sleep rather than spin. (Under
  // Xvfb, with no window manager, the hook stands in for iconify and sleeps a fixed interval, so
  // the wall time is not checked; the CPU share still catches a loop that renders or polls.)
  ASSERT_GE(r.minimized_wait_frames.size(), 6u);
  for (uint64_t f : r.minimized_wait_frames) EXPECT_EQ(f, 60u);
  EXPECT_LT(r.minimized_cpu_s, 0.5 * r.minimized_wall_s);

  // The screenshot is the window's size, not blank, and exactly the graph's "final" image.
  ASSERT_TRUE(r.screenshot_written);
  EXPECT_EQ(r.final_extent.width, 256u);
  EXPECT_EQ(r.final_extent.height, 192u);
  const io::ImageU8 shot = io::read_png(*window.screenshot);
  ASSERT_EQ(shot.width, 256u);
  ASSERT_EQ(shot.height, 192u);
  EXPECT_GT(green_variance(shot), 10.0);
  const io::ImageU8 final_image = io::read_png(dir + "/window-final.png");
  ASSERT_EQ(final_image.width, 256u);
  EXPECT_EQ(max_abs_difference(shot, final_image), 0);

  // Frame 119 rendered headless at the last size is the same image: the scene depends only on
  // the frame index, and the resizes left nothing behind.
  runtime::RunOptions headless_run = test::validated_run(256, 192);
  headless_run.chain = "copy";
  headless_run.warmup = 0;
  headless_run.frames = 120;
  headless_run.captures = {{"final", dir + "/headless-final.png"}};
  EXPECT_EQ(runtime::run_headless(headless_run).validation_messages, 0u);
  const io::ImageU8 reference = io::read_png(dir + "/headless-final.png");
  ASSERT_EQ(reference.width, 256u);
  ASSERT_EQ(reference.height, 192u);
  EXPECT_EQ(max_abs_difference(shot, reference), 0);

  // And the image changes from frame to frame (the camera orbits): not a stale copy.
  headless_run.frames = 100;
  runtime::run_headless(headless_run);
  EXPECT_GT(max_abs_difference(shot, io::read_png(dir + "/headless-final.png")), 16);
}

TEST(Window, MailboxAndImmediatePresentModesAreUsedWhenSupported) {
  SKIP_WITHOUT_DISPLAY();
  for (vk::PresentMode mode : {vk::PresentMode::Mailbox, vk::PresentMode::Immediate}) {
    runtime::RunOptions run = test::validated_run(96, 64);
    app::WindowOptions window = presentation_only();
    window.frames = 8;
    window.present_mode = mode;
    app::WindowResult r;
    const std::string messages = with_stderr_captured([&] { r = app::run_window_app(run, window); });
    EXPECT_EQ(r.validation_messages, 0u);
    EXPECT_EQ(messages.find("validation"), std::string::npos) << messages;
    EXPECT_EQ(r.frames, 8u);
    // lavapipe's X11 surfaces offer both; elsewhere the run falls back to FIFO and says why.
    const std::string expected = r.note.empty() ? vk::present_mode_name(mode) : "fifo";
    EXPECT_EQ(r.present_mode, expected) << r.note;
  }
}

TEST(Window, ScreenshotOfASingleFrameWithoutAChain) {
  SKIP_WITHOUT_DISPLAY();
  const std::string dir = test::temp_dir("window-one");
  runtime::RunOptions run = test::validated_run(133, 77);  // odd size
  app::WindowOptions window = presentation_only();
  window.frames = 1;
  window.screenshot = dir + "/one.png";
  const app::WindowResult r = run_window_without_messages(run, window);
  EXPECT_EQ(r.frames, 1u);
  EXPECT_EQ(r.builds.size(), 1u);
  const io::ImageU8 shot = io::read_png(dir + "/one.png");
  EXPECT_EQ(shot.width, 133u);
  EXPECT_EQ(shot.height, 77u);
  EXPECT_GT(green_variance(shot), 10.0);
}

TEST(Window, ClosingTheWindowEndsTheRunAndStillTakesTheScreenshot) {
  SKIP_WITHOUT_DISPLAY();
  const std::string dir = test::temp_dir("window-close");
  runtime::RunOptions run = test::validated_run(160, 120);
  app::WindowOptions window = presentation_only();  // no frame count: runs until closed
  window.test_close_at = 5;
  window.screenshot = dir + "/closed.png";
  app::WindowResult r = run_window_without_messages(run, window);
  // Frames 0-4, then one more for the screenshot once the close was seen.
  EXPECT_EQ(r.frames, 6u);
  ASSERT_TRUE(r.screenshot_written);

  runtime::RunOptions headless_run = test::validated_run(160, 120);
  headless_run.warmup = 0;
  headless_run.frames = 6;
  headless_run.captures = {{"final", dir + "/headless.png"}};
  runtime::run_headless(headless_run);
  EXPECT_EQ(max_abs_difference(io::read_png(dir + "/closed.png"), io::read_png(dir + "/headless.png")), 0);

  // Without a screenshot to take, the close ends the run at once.
  window.screenshot.reset();
  with_stderr_captured([&] { r = app::run_window_app(run, window); });
  EXPECT_EQ(r.frames, 5u);
  EXPECT_FALSE(r.screenshot_written);

  // Closed before the first frame: no capture is written, and none is claimed (`wrote` lines come
  // from captures_written).
  window.test_close_at = 0;
  run.captures = {{"final", dir + "/never.png"}};
  const std::string said = with_stderr_captured([&] { r = app::run_window_app(run, window); });
  EXPECT_EQ(r.frames, 0u);
  EXPECT_TRUE(r.captures_written.empty());
  EXPECT_FALSE(std::filesystem::exists(dir + "/never.png"));
  EXPECT_NE(said.find("no captures: the window closed before a frame was rendered"), std::string::npos)
      << said;
}

TEST(Window, BadInputFailsBeforeAWindowOpensWithAClearMessage) {
  // These need no display: the checks come first.
  runtime::RunOptions run = test::validated_run(64, 64);
  app::WindowOptions window;
  window.frames = 1;
  run.chain = "nosuchfilter";
  EXPECT_THROW(app::run_window_app(run, window), filters::ChainError);

  SKIP_WITHOUT_DISPLAY();
  run.chain = "copy";
  run.captures = {{"nosuchimage", "/tmp/never-written.png"}};
  try {
    with_stderr_captured([&] { app::run_window_app(run, window); });
    FAIL() << "an unknown capture image must throw";
  } catch (const runtime::UnknownImageError& e) {
    EXPECT_NE(std::string(e.what()).find("nosuchimage"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(std::filesystem::exists("/tmp/never-written.png"));
}

TEST(Window, NoDisplayIsANoDeviceErrorNamingTheProblem) {
  SKIP_WITHOUT_DISPLAY();  // needs a display to take away
  const std::string display = std::getenv("DISPLAY");
  ::unsetenv("DISPLAY");
  runtime::RunOptions run = test::validated_run(64, 64);
  app::WindowOptions window;
  window.frames = 1;
  std::string what;
  try {
    app::run_window_app(run, window);
  } catch (const app::NoDisplayError& e) {
    what = e.what();
  }
  ::setenv("DISPLAY", display.c_str(), 1);
  EXPECT_NE(what.find("cannot open a window"), std::string::npos) << what;
  EXPECT_NE(what.find("--headless"), std::string::npos) << what;
}

// On a CPU device (lavapipe here) the command line's default size opens a 640x360 window and says
// why; --size still decides.
TEST(Window, ACpuDeviceOpensSmallerUnlessASizeIsGiven) {
  SKIP_WITHOUT_DISPLAY();
  const std::string dir = filterlab::test::temp_dir("window-cpu-size");
  auto r = filterlab::test::run_binary("run --frames 2 --no-hot-reload --screenshot " + dir + "/default.png");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("is a CPU device: the window opens at 640x360"), std::string::npos) << r.output;
  EXPECT_EQ(filterlab::io::read_png_header(dir + "/default.png").width, 640u);
  r = filterlab::test::run_binary("run --frames 2 --no-hot-reload --size 320x200 --screenshot " + dir +
                                  "/given.png");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output.find("is a CPU device"), std::string::npos) << r.output;
  EXPECT_EQ(filterlab::io::read_png_header(dir + "/given.png").width, 320u);
}
