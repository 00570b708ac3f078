// tier: smoke
// GPU tier: the headless runner end to end on lavapipe (or any device), validation on.
#include "gpu_test_util.h"

#include "graph/executor.h"
#include "runtime/capture.h"
#include "vk/shader_compiler.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>

using namespace filterlab;
using test::validated_run;

namespace {

size_t count_nonzero_motion(const io::ImageF& motion, float threshold) {
  size_t n = 0;
  for (size_t i = 0; i < motion.pixels.size(); i += 2)
    if (std::abs(motion.pixels[i]) > threshold || std::abs(motion.pixels[i + 1]) > threshold) ++n;
  return n;
}

void expect_scene_is_rich(const runtime::RunResult& r, uint32_t width, uint32_t height) {
  EXPECT_EQ(r.validation_messages, 0u);
  const io::ImageF& scene = r.images.at("scene");
  ASSERT_EQ(scene.width, width);
  ASSERT_EQ(scene.height, height);
  // Not blank, and HDR: highlights, lamps and the sun exceed 1.
  EXPECT_GT(io::channel_variance(scene, 1), 0.01);
  EXPECT_GT(io::channel_max(scene, 0), 4.0f);
  const io::ImageF& final_image = r.images.at("final");
  EXPECT_GT(io::channel_variance(final_image, 1), 0.005);
  EXPECT_LE(io::channel_max(final_image, 1), 1.0f);
  const io::ImageF& depth = r.images.at("depth");
  float nearest = 1.0f;
  for (float d : depth.pixels) nearest = std::min(nearest, d);
  EXPECT_LT(nearest, 0.99f);
  EXPECT_GT(io::channel_max(depth, 0), 0.99f);
  for (const runtime::PassStats& p : r.passes) {
    EXPECT_GT(p.gpu_ms.median, 0.0) << p.name;
    EXPECT_GT(p.gpu_ms.min, 0.0) << p.name;
    EXPECT_EQ(p.gpu_ms.count, 3u) << p.name;
  }
}

}  // namespace

TEST(Headless, RendersSquare256WithoutValidationMessages) {
  auto o = validated_run(256, 256);
  o.read_images = {"scene", "depth", "motion", "final"};
  runtime::RunResult r = runtime::run_headless(o);
  expect_scene_is_rich(r, 256, 256);
  ASSERT_EQ(r.passes.size(), 2u);
  EXPECT_EQ(r.passes[0].name, "scene");
  EXPECT_EQ(r.passes[1].name, "tonemap");
}

TEST(Headless, RendersOddSize333x197WithAFilterChain) {
  auto o = validated_run(333, 197);
  o.chain = "copy,copy";
  o.read_images = {"scene", "depth", "motion", "final", "copy.2"};
  runtime::RunResult r = runtime::run_headless(o);
  expect_scene_is_rich(r, 333, 197);
  ASSERT_EQ(r.passes.size(), 4u);
  EXPECT_EQ(r.passes[2].name, "copy.2");
  // Two exact copies: the chain's output equals the scene bit for bit.
  EXPECT_EQ(r.images.at("copy.2").pixels, r.images.at("scene").pixels);
}

// A chain of 200 steps: the graph has no pass limit of its own (127 steps stopped with "more than
// 128 live passes" after the device was made; issue #54), and every pass is still timed.
TEST(Headless, AChainOfTwoHundredStepsRunsAndIsTimed) {
  auto o = validated_run(33, 19);
  std::string chain = "copy";
  for (int i = 1; i < 200; ++i) chain += ",copy";
  o.chain = chain;
  o.frames = 3;
  o.read_images = {"scene", "copy.200"};
  runtime::RunResult r = runtime::run_headless(o);
  ASSERT_EQ(r.passes.size(), 202u);
  EXPECT_EQ(r.images.at("copy.200").pixels, r.images.at("scene").pixels);
}

TEST(Headless, MotionIsZeroWhenNothingMovesAndNonZeroWhenTheCameraMoves) {
  auto still = validated_run(160, 96);
  still.scene.orbit_camera = false;
  still.scene.animate_objects = false;
  still.read_images = {"motion"};
  const io::ImageF motion_still = runtime::run_headless(still).images.at("motion");
  EXPECT_EQ(count_nonzero_motion(motion_still, 0.0f), 0u);

  auto orbit = still;
  orbit.scene.orbit_camera = true;
  runtime::RunResult moving = runtime::run_headless(orbit);
  EXPECT_EQ(moving.validation_messages, 0u);
  const io::ImageF& motion = moving.images.at("motion");
  // 0.25 rad/s at 60 Hz moves most of the screen by a fraction of a pixel; the sky far away
  // moves too (rotation), so nearly every pixel has motion.
  EXPECT_GT(count_nonzero_motion(motion, 1e-3f), motion.width * motion.height / 2);
  EXPECT_LT(io::channel_max(motion, 0), 20.0f);  // pixels per frame, not NDC or garbage

  // Camera fixed, objects animated: only the moving objects' pixels have motion.
  auto animated = still;
  animated.scene.animate_objects = true;
  const io::ImageF motion_objects = runtime::run_headless(animated).images.at("motion");
  const size_t moving_pixels = count_nonzero_motion(motion_objects, 1e-3f);
  EXPECT_GT(moving_pixels, 0u);
  EXPECT_LT(moving_pixels, motion_objects.width * motion_objects.height / 4);
}

TEST(Headless, JitterShiftsTheImageButNotTheMotionVectors) {
  auto plain = validated_run(128, 96);
  plain.scene.orbit_camera = false;
  plain.scene.animate_objects = false;
  plain.read_images = {"scene", "motion"};
  auto jittered = plain;
  jittered.scene.jitter = true;
  runtime::RunResult a = runtime::run_headless(plain);
  runtime::RunResult b = runtime::run_headless(jittered);
  EXPECT_NE(a.images.at("scene").pixels, b.images.at("scene").pixels);
  EXPECT_EQ(count_nonzero_motion(b.images.at("motion"), 0.0f), 0u);
  EXPECT_EQ(b.validation_messages, 0u);
}

TEST(Headless, TimingsJsonHasTheDocumentedShape) {
  const std::string dir = test::temp_dir("json");
  auto o = validated_run(96, 64);
  o.chain = "copy";
  runtime::RunResult r = runtime::run_headless(o);
  runtime::write_timings_json(r, o, dir + "/t.json");
  std::ifstream in(dir + "/t.json");
  nlohmann::json j = nlohmann::json::parse(in);
  EXPECT_FALSE(j["device"]["name"].get<std::string>().empty());
  EXPECT_FALSE(j["device"]["driver"].get<std::string>().empty());
  EXPECT_EQ(j["size"], nlohmann::json({96, 64}));
  EXPECT_EQ(j["frames"], 3);
  EXPECT_EQ(j["chain"], "copy");
  ASSERT_EQ(j["passes"].size(), 3u);
  for (const auto& p : j["passes"]) {
    for (const char* key : {"median", "p5", "p95", "min", "max"}) {
      EXPECT_GT(p["gpu_ms"][key].get<double>(), 0.0) << p["name"] << " " << key;
      EXPECT_GE(p["cpu_ms"][key].get<double>(), 0.0);
    }
    EXPECT_LE(p["gpu_ms"]["p5"].get<double>(), p["gpu_ms"]["p95"].get<double>());
  }
  // The copy reads what the scene pass just wrote: L2-assisted, said so; the scene reads nothing.
  EXPECT_TRUE(j["passes"][0]["reads_from_previous"].is_null());
  EXPECT_EQ(j["passes"][1]["name"], "copy");
  EXPECT_EQ(j["passes"][1]["reads_from_previous"], "scene");
  EXPECT_GT(j["frame_wall_ms"].get<double>(), 0.0);
  std::filesystem::remove_all(dir);
}

TEST(Headless, ListsImagesAndDumpsTheGraph) {
  const std::string dir = test::temp_dir("dot");
  auto o = validated_run(64, 64);
  o.chain = "copy";
  o.dump_graph = dir + "/g.dot";
  runtime::run_headless(o);
  std::ifstream in(dir + "/g.dot");
  std::string dot((std::istreambuf_iterator<char>(in)), {});
  EXPECT_NE(dot.find("digraph"), std::string::npos);
  EXPECT_NE(dot.find("copy (compute)"), std::string::npos);
  EXPECT_NE(dot.find("barrier scene mip 0"), std::string::npos);
  EXPECT_NE(dot.find("color_output/color_write -> compute/sampled_read"), std::string::npos) << dot;

  o.list_images = true;
  runtime::RunResult r = runtime::run_headless(o);
  EXPECT_NE(r.image_list.find("motion  rg16f"), std::string::npos) << r.image_list;
  EXPECT_NE(r.image_list.find("final  rgba8  64x64  tonemap"), std::string::npos) << r.image_list;
  std::filesystem::remove_all(dir);
}

TEST(Headless, UnknownCaptureNameIsReported) {
  auto o = validated_run(32, 32);
  o.read_images = {"sceen"};
  try {
    runtime::run_headless(o);
    FAIL();
  } catch (const runtime::UnknownImageError& e) {
    EXPECT_NE(std::string(e.what()).find("no image named 'sceen'"), std::string::npos);
  }
}
