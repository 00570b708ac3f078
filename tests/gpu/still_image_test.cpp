// A user's own picture: OpenEXR through `filter` bit for bit, and `run --image FILE` (headless)
// in place of the scene: every family that reads no depth or motion runs on it and gives what
// `filter` gives on the same file; the others are refused by name; another size scales it to fit.
#include "gpu_test_util.h"

#include "common/reference.h"
#include "filters/registry.h"
#include "io/image_files.h"
#include "vk/formats.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <fstream>

namespace filterlab {
namespace {

void expect_same_bits(const io::ImageF& a, const io::ImageF& b, const std::string& what) {
  ASSERT_EQ(a.width, b.width) << what;
  ASSERT_EQ(a.height, b.height) << what;
  ASSERT_EQ(a.channels, b.channels) << what;
  size_t differ = 0;
  for (size_t i = 0; i < a.pixels.size(); ++i)
    differ += std::bit_cast<uint32_t>(a.pixels[i]) != std::bit_cast<uint32_t>(b.pixels[i]);
  EXPECT_EQ(differ, 0u) << what;
}

// fp32 copies of a float file and fp16 copies of a half file are the file, channel for channel.
TEST(StillImage, OpenExrThroughACopyIsBitExact) {
  const std::string dir = test::temp_dir("exr-copy");
  for (const uint32_t channels : {3u, 4u})
    for (const bool halves : {false, true}) {
      io::ImageF image = common::random_image(29, 17, channels, 5 + channels);
      for (float& v : image.pixels) v = v * 40.0f - 8.0f;  // HDR, negative values too
      if (halves)
        for (float& v : image.pixels) v = vk::half_to_float(vk::float_to_half(v));
      const std::string in = dir + "/in.exr", out = dir + "/out.exr";
      io::write_exr(in, image, halves ? io::ExrSamples::Half : io::ExrSamples::Float);
      const auto r = test::run_binary("filter --validation --input " + in + " --output " + out +
                                      " --filter copy --precision " + (halves ? "fp16" : "fp32"));
      ASSERT_EQ(r.exit_code, 0) << r.output;
      EXPECT_EQ(io::read_exr_header(out).bits, halves ? 16u : 32u);
      expect_same_bits(image, io::read_exr(out), std::to_string(channels) + (halves ? " half" : " float"));
    }
  std::filesystem::remove_all(dir);
}

// Each family on the same picture through `run --image` and through `filter`: the same numbers.
TEST(StillImage, RunImageGivesWhatFilterGivesAndRefusesWhatNeedsTheScene) {
  const std::string dir = test::temp_dir("run-image");
  io::ImageF image = common::random_image(41, 27, 4, 11);
  io::write_exr(dir + "/photo.exr", image, io::ExrSamples::Half);
  io::write_image_file(dir + "/photo.png", image, io::Encoding::Srgb);
  for (const char* file : {"photo.exr", "photo.png"})
    for (const filters::Family* family : filters::registry().families()) {
      const std::string method =
          family->default_method.empty() ? family->methods.front().name : family->default_method;
      const std::string what = std::string(file) + " " + family->name + "." + method;
      const std::string input = dir + "/" + file;
      // The still image is RGBA32F, as decoded; `filter` uploads in the step's precision: fp32 here.
      const bool precision = family->param("precision") != nullptr;
      const auto run =
          test::run_binary("run --headless --validation --frames 1 --warmup 0 --quiet --image " + input +
                           " --chain " + family->name + "." + method + (precision ? ":precision=fp32" : "") +
                           " --capture " + family->name + "=" + dir + "/run.pfm");
      if (family->needs(filters::Input::Depth) || family->needs(filters::Input::Motion)) {
        EXPECT_EQ(run.exit_code, 2) << what << "\n" << run.output;
        EXPECT_NE(run.output.find("a still image has no"), std::string::npos) << what << "\n" << run.output;
        continue;
      }
      ASSERT_EQ(run.exit_code, 0) << what << "\n" << run.output;
      const auto filter =
          test::run_binary("filter --input " + input + " --output " + dir + "/filter.pfm --filter " +
                           family->name + " --method " + method + (precision ? " --precision fp32" : ""));
      ASSERT_EQ(filter.exit_code, 0) << what << "\n" << filter.output;
      expect_same_bits(io::read_pfm(dir + "/filter.pfm"), io::read_pfm(dir + "/run.pfm"), what);
    }
  std::filesystem::remove_all(dir);
}

// At another size the picture is scaled to fit, its aspect kept, centred between black bars:
// bilinear within 1e-3 of a CPU model of the sampler (texel centres at half-integers, clamped).
TEST(StillImage, AnotherSizeScalesThePictureToFit) {
  const std::string dir = test::temp_dir("run-image-fit");
  const io::ImageF image = common::random_image(20, 10, 3, 3);
  io::write_pfm(dir + "/photo.pfm", image);
  const auto r = test::run_binary("run --headless --validation --frames 1 --warmup 0 --quiet --image " + dir +
                                  "/photo.pfm --size 64x24 --capture scene=" + dir + "/fit.pfm");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const io::ImageF fit = io::read_pfm(dir + "/fit.pfm");
  ASSERT_EQ(fit.width, 64u);
  const float scale = std::min(64.0f / 20.0f, 24.0f / 10.0f);  // 2.4: 48 x 24, 8-pixel bars
  const float offset = 0.5f * (64.0f - scale * 20.0f);
  auto texel = [&](int x, int y, uint32_t c) {
    return image.at(uint32_t(std::clamp(x, 0, 19)), uint32_t(std::clamp(y, 0, 9)), c);
  };
  double worst = 0;
  for (uint32_t y = 0; y < 24; ++y)
    for (uint32_t x = 0; x < 64; ++x) {
      const float ax = (float(x) + 0.5f - offset) / scale, ay = (float(y) + 0.5f) / scale;
      for (uint32_t c = 0; c < 3; ++c) {
        if (ax < 0 || ax >= 20) {
          EXPECT_EQ(fit.at(x, y, c), 0.0f) << x << "," << y;  // the bars
          continue;
        }
        const float fx = ax - 0.5f, fy = ay - 0.5f;
        const int x0 = int(std::floor(fx)), y0 = int(std::floor(fy));
        const float tx = fx - float(x0), ty = fy - float(y0);
        const double v = (1 - ty) * ((1 - tx) * texel(x0, y0, c) + tx * texel(x0 + 1, y0, c)) +
                         ty * ((1 - tx) * texel(x0, y0 + 1, c) + tx * texel(x0 + 1, y0 + 1, c));
        worst = std::max(worst, std::abs(v - fit.at(x, y, c)));
      }
    }
  EXPECT_LE(worst, 1e-3);
  std::filesystem::remove_all(dir);
}

// The paper's tables on a photograph: every tabled family's methods against their baseline on the
// file's values as stored, the baseline against itself exactly 0.
TEST(StillImage, QualityTablesAPhotograph) {
  const std::string dir = test::temp_dir("quality-image");
  io::write_image_file(dir + "/photo.png", common::random_image(33, 21, 3, 4), io::Encoding::Raw);
  const auto r = test::run_binary("quality --validation --image " + dir + "/photo.png --radii 1 --json " +
                                  dir + "/q.json");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const nlohmann::json q = nlohmann::json::parse(std::ifstream(dir + "/q.json"));
  EXPECT_EQ(q["size"], nlohmann::json({33, 21}));
  EXPECT_NE(q["image"].get<std::string>().find("photo.png"), std::string::npos);
  ASSERT_FALSE(q["tables"].empty());
  for (const auto& table : q["tables"]) {
    const std::string baseline = table["baseline"].get<std::string>();
    for (const auto& row : table["methods"])
      if (row["method"] == baseline) {
        EXPECT_EQ(row["by_radius"]["1"]["mse"].get<double>(), 0.0) << row.dump();
      }
  }
  std::filesystem::remove_all(dir);
}

// The window shows it too: with no panel, the screenshot is the picture tonemapped (the chain a
// copy), as the headless run's "final" is.
TEST(StillImage, TheWindowShowsTheStillImage) {
  const std::string dir = test::temp_dir("window-image");
  io::write_exr(dir + "/photo.exr", common::random_image(48, 32, 4, 9), io::ExrSamples::Half);
  const std::string common =
      " --validation --image " + dir + "/photo.exr --chain copy --frames 3 --warmup 0 ";
  const auto window = test::run_binary("run --no-ui" + common + "--screenshot " + dir + "/window.png",
                                       "FILTERLAB_WINDOW_SCRIPT=close@3");
  if (window.output.find("no display") != std::string::npos) GTEST_SKIP() << window.output;
  ASSERT_EQ(window.exit_code, 0) << window.output;
  const auto headless =
      test::run_binary("run --headless --quiet" + common + "--capture final=" + dir + "/final.png");
  ASSERT_EQ(headless.exit_code, 0) << headless.output;
  const io::ImageU8 shown = io::read_png(dir + "/window.png"), final = io::read_png(dir + "/final.png");
  ASSERT_EQ(shown.width, 48u);
  EXPECT_EQ(shown.rgba, final.rgba);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace filterlab
