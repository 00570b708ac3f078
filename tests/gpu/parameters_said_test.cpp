// Parameters that said nothing (issue #54): a radius past every method's reach refused without the
// limit, a derived sigma never printed and stored by presets as if given, a sigma the box kernel
// ignored, a 16-bit picture filtered in fp16 by default.
#include "gpu_test_util.h"

#include "common/kernel.h"
#include "common/reference.h"
#include "io/image_files.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>

namespace filterlab {
namespace {

TEST(ParametersSaid, ARadiusPastEveryMethodNamesTheLargestServed) {
  const std::string dir = test::temp_dir("params-radius");
  io::write_image_file(dir + "/in.pfm", common::random_image(21, 13, 3, 2), io::Encoding::Raw);
  const auto r = test::run_binary("filter --input " + dir + "/in.pfm --output " + dir + "/out.pfm --radius 40");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("radius 40 is past the largest an exact method serves here, 32"), std::string::npos)
      << r.output;
  EXPECT_FALSE(std::filesystem::exists(dir + "/out.pfm"));
  std::filesystem::remove_all(dir);
}

TEST(ParametersSaid, ADerivedSigmaIsPrintedAndASigmaTheKernelIgnoresIsRefused) {
  const std::string dir = test::temp_dir("params-sigma");
  io::write_image_file(dir + "/in.pfm", common::random_image(21, 13, 3, 2), io::Encoding::Raw);
  const auto r = test::run_binary("filter --input " + dir + "/in.pfm --output " + dir + "/out.pfm --radius 4");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  char sigma[32];
  std::snprintf(sigma, sizeof sigma, "sigma %.6g", common::ideal_sigma(4));
  EXPECT_NE(r.output.find(sigma), std::string::npos) << r.output;
  const auto box = test::run_binary("filter --input " + dir + "/in.pfm --output " + dir +
                                    "/box.pfm --radius 4 --kernel box --sigma 3");
  EXPECT_EQ(box.exit_code, 2) << box.output;
  EXPECT_NE(box.output.find("kernel=box takes none"), std::string::npos) << box.output;
  EXPECT_FALSE(std::filesystem::exists(dir + "/box.pfm"));
  std::filesystem::remove_all(dir);
}

// A preset keeps "ideal" as ideal: saved without the derived sigma, so a radius changed in it later
// derives its own.
TEST(ParametersSaid, APresetKeepsADerivedSigmaDerived) {
  const std::string dir = test::temp_dir("params-preset");
  const auto r = test::run_binary("run --headless --frames 1 --warmup 0 --quiet --size 32x32 --chain "
                                  "gaussian:radius=3,gaussian:radius=3:sigma=2 --save-chain " +
                                  dir + "/p.json");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::ifstream in(dir + "/p.json");
  const nlohmann::json preset = nlohmann::json::parse(in);
  const std::string text = preset.dump();
  const nlohmann::json& steps = preset["chain"];
  ASSERT_EQ(steps.size(), 2u) << text;
  auto has_sigma = [](const nlohmann::json& step) {
    for (const nlohmann::json& p : step["params"])
      if (p[0] == "sigma") return true;
    return false;
  };
  EXPECT_FALSE(has_sigma(steps[0])) << text;
  EXPECT_TRUE(has_sigma(steps[1])) << text;
  std::filesystem::remove_all(dir);
}

// A 16-bit PNG in fp32 by default: the blur within a level of 65535 of the double reference (fp16
// erred by up to 16 levels).
TEST(ParametersSaid, ASixteenBitPictureIsFilteredInFp32ByDefault) {
  const std::string dir = test::temp_dir("params-16bit");
  std::vector<uint16_t> samples(37 * 23);
  for (size_t i = 0; i < samples.size(); ++i) samples[i] = uint16_t(i * 2654435761u >> 16);
  io::write_png_samples(dir + "/in.png", 37, 23, 1, 16, samples);
  const auto r = test::run_binary("filter --validation --raw --input " + dir + "/in.png --output " + dir +
                                  "/out.png --radius 2");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("precision=fp32"), std::string::npos) << r.output;
  const io::ImageF input = io::read_image_file(dir + "/in.png", io::Encoding::Raw);
  common::KernelSpec spec;
  spec.radius = 2;
  const common::ImageD expected = common::reference_blur(input, common::kernel_weights(spec));
  const io::ImageF out = io::read_image_file(dir + "/out.png", io::Encoding::Raw);
  double worst = 0;
  for (size_t p = 0; p < size_t(37) * 23; ++p)
    worst = std::max(worst, std::abs(out.pixels[p * out.channels] - expected.pixels[p * expected.channels]));
  EXPECT_LE(worst * 65535, 1.0);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace filterlab
