// Unit tier: the window app's logic that needs no GPU: chain configs as the panel edits them,
// rolling timing statistics, unique screenshot names.
#include "app_state.h"
#include "screenshot.h"
#include "ui/layout.h"
#include "ui/panel.h"
#include "ui/timing_history.h"
#include "ui/viewport_input.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <optional>

namespace filterlab::app {
namespace {

TEST(ChainConfig, SpecRoundTripsAndSkipsDisabledSteps) {
  ChainConfig c = ChainConfig::parse("gaussian.comp.tiled:radius=4:kernel=box,copy:precision=fp32");
  ASSERT_EQ(c.entries.size(), 2u);
  EXPECT_EQ(c.spec(), "gaussian.comp.tiled:radius=4:kernel=box,copy:precision=fp32");  // as written
  EXPECT_EQ(ChainConfig::parse(c.spec()), c);
  c.entries[0].enabled = false;
  EXPECT_EQ(c.spec(), "copy:precision=fp32");
  ASSERT_EQ(c.enabled_steps().size(), 1u);
  EXPECT_EQ(c.enabled_steps()[0].filter, "copy");
  EXPECT_FALSE(c == ChainConfig::parse("gaussian.comp.tiled:radius=4:kernel=box,copy:precision=fp32"));
  EXPECT_EQ(ChainConfig::parse("").spec(), "");
}

TEST(ChainConfig, GraphConfigEqualityFollowsEveryField) {
  GraphConfig a;
  a.chain_a = ChainConfig::parse("copy");
  GraphConfig b = a;
  EXPECT_TRUE(a == b);
  b.viewport = "scene";
  EXPECT_FALSE(a == b);
  b = a;
  b.compare = true;
  EXPECT_FALSE(a == b);
  b = a;
  b.chain_a.entries[0].step.set("precision", "fp32");
  EXPECT_FALSE(a == b);
}

std::vector<graph::PassTiming> frame(double scene, double blur) {
  return {{"scene", scene, 0.0}, {"gaussian", blur, 0.0}};
}

TEST(TimingHistory, RollingWindowStatistics) {
  TimingHistory t(3);
  t.add_frame(frame(1.0, 10.0), 16.0);
  t.add_frame(frame(2.0, 20.0), 17.0);
  t.add_frame(frame(3.0, 30.0), 18.0);
  t.add_frame(frame(4.0, 40.0), 19.0);  // pushes the first frame out
  const RollingStats s = t.pass_stats("scene");
  EXPECT_EQ(s.count, 3u);
  EXPECT_DOUBLE_EQ(s.mean, 3.0);
  EXPECT_DOUBLE_EQ(s.min, 2.0);
  EXPECT_DOUBLE_EQ(s.max, 4.0);
  EXPECT_DOUBLE_EQ(s.last, 4.0);
  EXPECT_DOUBLE_EQ(t.gpu_total().mean, (22.0 + 33.0 + 44.0) / 3.0);
  EXPECT_DOUBLE_EQ(t.cpu_frame().mean, 18.0);
  EXPECT_EQ(t.pass_history("gaussian"), (std::vector<float>{20.0f, 30.0f, 40.0f}));
  EXPECT_EQ(t.pass_order(), (std::vector<std::string>{"scene", "gaussian"}));
}

TEST(TimingHistory, PassesThatLeaveTheGraphLoseTheirHistory) {
  TimingHistory t(8);
  t.add_frame(frame(1.0, 10.0), 16.0);
  t.add_frame({{"scene", 2.0, 0.0}}, 16.0);
  EXPECT_EQ(t.pass_stats("gaussian").count, 0u);
  t.add_frame(frame(3.0, 50.0), 16.0);
  EXPECT_EQ(t.pass_stats("gaussian").count, 1u);
  EXPECT_DOUBLE_EQ(t.pass_stats("gaussian").mean, 50.0);
  EXPECT_EQ(t.pass_stats("scene").count, 3u);
}

// A pass that recorded nothing in a frame (PassTiming::idle) is listed apart in that frame, not as
// a 0 ms row, and its idle frames count neither in its statistics nor in the GPU frame total.
TEST(TimingHistory, IdlePassesAreListedApartAndHaveNoTime) {
  TimingHistory t(4);
  auto with_range = [](std::optional<double> range_ms) {
    std::vector<graph::PassTiming> passes = {{"scene", 1.0, 0.0}};
    passes.push_back({"view range", range_ms.value_or(0.0), 0.0, !range_ms});
    passes.push_back({"view", 2.0, 0.0});
    return passes;
  };
  t.add_frame(with_range(0.5), 16.0);
  t.add_frame(with_range(std::nullopt), 16.0);
  EXPECT_EQ(t.pass_order(), (std::vector<std::string>{"scene", "view"}));
  EXPECT_EQ(t.idle_passes(), std::vector<std::string>{"view range"});
  EXPECT_DOUBLE_EQ(t.gpu_total().last, 3.0);
  t.add_frame(with_range(1.5), 16.0);
  EXPECT_EQ(t.pass_order(), (std::vector<std::string>{"scene", "view range", "view"}));
  EXPECT_TRUE(t.idle_passes().empty());
  const RollingStats range = t.pass_stats("view range");
  EXPECT_EQ(range.count, 2u) << "the idle frame is no sample";
  EXPECT_DOUBLE_EQ(range.mean, 1.0);
  EXPECT_DOUBLE_EQ(range.min, 0.5);
  EXPECT_EQ(t.pass_history("view range"), (std::vector<float>{0.5f, 1.5f}));
  // The window counts frames, idle ones included: two more push the first sample out.
  t.add_frame(with_range(std::nullopt), 16.0);
  t.add_frame(with_range(std::nullopt), 16.0);
  EXPECT_EQ(t.pass_stats("view range").count, 1u);
  EXPECT_EQ(t.pass_stats("scene").count, 4u);
}

TEST(Screenshot, StemsAreUniqueInTheirFolder) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "filterlab_stem_test";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::filesystem::path first = unique_screenshot_stem(dir);
  std::ofstream(first.string() + ".png") << "x";
  const std::filesystem::path second = unique_screenshot_stem(dir);
  EXPECT_NE(first, second);
  EXPECT_EQ(second.parent_path(), dir);
  std::ofstream(second.string() + ".json") << "x";
  const std::filesystem::path third = unique_screenshot_stem(dir);
  EXPECT_NE(third, first);
  EXPECT_NE(third, second);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace filterlab::app

// The viewport is never covered: over window sizes from 640x360 to 2560x1440, with the columns
// open, collapsed, one of each and hidden (Tab), no column intersects the viewport, all three lie
// inside the window and fill its width, and the viewport is whole pixels (the graph's size). At
// 960x540 with both open the columns take at most 430 px and a picture of the window's aspect fit
// into the viewport covers at least 30% of the window; at 640x360 the columns start collapsed.
TEST(WindowLayout, NoColumnCoversTheViewport) {
  using namespace filterlab::app;
  const float sizes[][2] = {{640, 360}, {800, 450}, {960, 540}, {1280, 720}, {1920, 1080}, {2560, 1440}};
  for (const auto& [w, h] : sizes)
    for (int open = 0; open < 4; ++open)
      for (bool show_ui : {true, false}) {
        Columns c;
        c.controls_open = open & 1;
        c.timings_open = open & 2;
        const WindowLayout l = window_layout(w, h, c, show_ui);
        const std::string at = std::to_string(int(w)) + "x" + std::to_string(int(h)) + " open " +
                               std::to_string(open) + (show_ui ? "" : " tab");
        EXPECT_FALSE(l.controls.intersects(l.viewport)) << at;
        EXPECT_FALSE(l.timings.intersects(l.viewport)) << at;
        EXPECT_FALSE(l.controls.intersects(l.timings)) << at;
        EXPECT_GE(l.viewport.x, 0.0f) << at;
        EXPECT_LE(l.viewport.right(), w) << at;
        EXPECT_EQ(l.viewport.h, h) << at;
        EXPECT_EQ(l.viewport.w, std::floor(l.viewport.w)) << at;
        EXPECT_EQ(l.viewport.x, std::floor(l.viewport.x)) << at;
        EXPECT_GE(l.viewport.w, 64.0f) << at;
        const float columns = show_ui ? l.controls.w + l.timings.w : 0.0f;
        EXPECT_EQ(columns + l.viewport.w, w) << at;
      }
  const WindowLayout l = window_layout(960, 540, Columns{}, true);
  EXPECT_LE(l.controls.w + l.timings.w, 430.0f);
  const float fit = std::min(l.viewport.w / 960, l.viewport.h / 540);
  EXPECT_GE(960 * fit * 540 * fit, 0.30f * 960 * 540);
  EXPECT_FALSE(initial_columns(640).controls_open);
  EXPECT_FALSE(initial_columns(640).timings_open);
  EXPECT_TRUE(initial_columns(1280).controls_open);
}

// The timings table's pass column keeps its width: a long name keeps its head and tail around "...".
TEST(TimingHistory, LongPassNamesAreElidedInTheMiddle) {
  using filterlab::app::elide_middle;
  EXPECT_EQ(elide_middle("gaussian", 22), "gaussian");
  EXPECT_EQ(elide_middle("bigblur.rows.states.blocks.more", 22), "bigblur.ro...ocks.more");
  EXPECT_EQ(elide_middle("bigblur.rows.states.blocks.more", 22).size(), 22u);
  EXPECT_EQ(elide_middle("abcdefghij", 3), "abc");
  EXPECT_EQ(elide_middle("abcdefghij", 9), "abc...hij");
}

// The viewport's zoom: 1 shows the whole image 1:1; zoom z shows floor(W/z) x floor(H/z) whole pixels
// about the centre, kept inside the image; the pixel under a viewport point follows; zooming back to
// 1 forgets the centre.
TEST(WindowLayout, AZoomShowsWholePixelsAboutItsCentreInsideTheImage) {
  using namespace filterlab::app;
  const ShownRegion all = shown_region(200, 120, ViewZoom{});
  EXPECT_EQ(all.x, 0);
  EXPECT_EQ(all.w, 200u);
  EXPECT_EQ(all.h, 120u);
  const ShownRegion four = shown_region(200, 120, ViewZoom{4, 50, 40});
  EXPECT_EQ(four.w, 50u);
  EXPECT_EQ(four.h, 30u);
  EXPECT_EQ(four.x, 25);
  EXPECT_EQ(four.y, 25);
  const ShownRegion corner = shown_region(200, 120, ViewZoom{4, 2, 1});  // clamped inside
  EXPECT_EQ(corner.x, 0);
  EXPECT_EQ(corner.y, 0);
  const ShownRegion far = shown_region(200, 120, ViewZoom{4, 1000, 1000});
  EXPECT_EQ(far.x, 150);
  EXPECT_EQ(far.y, 90);
  EXPECT_EQ(pixel_under(0, 0, 200, 120, ViewZoom{4, 50, 40}), std::make_pair(25, 25));
  EXPECT_EQ(pixel_under(7.9f, 11, 200, 120, ViewZoom{4, 50, 40}), std::make_pair(26, 27));
  EXPECT_EQ(pixel_under(199.5f, 119.5f, 200, 120, ViewZoom{}), std::make_pair(199, 119));
  EXPECT_EQ(pixel_under(500, 500, 200, 120, ViewZoom{}), std::make_pair(199, 119));  // clamped
  EXPECT_EQ(zoomed(ViewZoom{}, 2, 10, 20), (ViewZoom{2, 10.5f, 20.5f}));
  EXPECT_EQ(zoomed(ViewZoom{2, 10.5f, 20.5f}, 0.5f, 0, 0), ViewZoom{});
  EXPECT_EQ(zoomed(ViewZoom{32, 1, 1}, 2, 0, 0).zoom, kMaxZoom);
}

// A column's dragged width is kept, and gives way where the viewport would fall under its least
// width: the viewport keeps kViewportMinWidth, the columns at least their strips.
TEST(WindowLayout, DraggedWidthsAreKeptWhileTheViewportKeepsItsLeast) {
  using namespace filterlab::app;
  Columns c;
  c.controls_width = 300;
  c.timings_width = 250;
  const WindowLayout l = window_layout(1280, 720, c, true);
  EXPECT_EQ(l.controls.w, 300.0f);
  EXPECT_EQ(l.timings.w, 250.0f);
  EXPECT_EQ(l.viewport.x, 300.0f);
  EXPECT_EQ(l.viewport.w, 730.0f);
  c.controls_width = 1200;  // dragged past the window
  const WindowLayout wide = window_layout(1280, 720, c, true);
  EXPECT_GE(wide.viewport.w, kViewportMinWidth);
  EXPECT_GE(wide.timings.w, kCollapsedColumnWidth);
  EXPECT_FALSE(wide.controls.intersects(wide.viewport));
  EXPECT_FALSE(wide.timings.intersects(wide.viewport));
}
