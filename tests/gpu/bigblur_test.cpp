// tier: smoke
// The bigblur family's pyramid methods against their double-precision CPU models
// (renderer/filters/bigblur/model.h), the noise against its formula, and the Poisson blur against
// the exact Gaussian. comp.exact and comp.recursive are in the registry's reference test.
// Lavapipe, validation on (synchronization validation included).
#include "gpu_test_util.h"

#include "filters/apply.h"
#include "filters/bigblur/design.h"
#include "filters/bigblur/model.h"
#include "filters/chain.h"
#include "runtime/sequence.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <numbers>

using namespace filterlab;
namespace bb = filterlab::filters::bigblur;

namespace {

class Bigblur : public test::ValidatedSuite {
 protected:
  passes::PassEnv env_{*context_, *shaders_, runtime::kFramesInFlight};

  io::ImageF apply(const io::ImageF& input, const std::string& step) {
    return filters::apply_to_each(env_, {input}, filters::parse_chain(step).at(0)).at(0);
  }
};

double max_abs(const io::ImageF& a, const common::ImageD& b) {
  return common::compare(a, b).max_abs;
}

double largest(const io::ImageF& image) {
  double m = 0;
  for (float v : image.pixels) m = std::max(m, double(std::abs(v)));
  return m;
}

io::ImageF scene_image(const passes::PassEnv& env, VkExtent2D size) {
  runtime::Sequence seq(env, {}, {}, size, {"scene"});
  seq.run();
  return seq.image("scene");
}

// Lavapipe filters in fp32 (its bilinear weights are not quantized: measured at most 2.1e-7 of the
// range below), so the models hold to fp32 rounding through the chain. A GPU that keeps 8 bits of
// the taps' fractions would miss this by three orders: these tests are for lavapipe.
constexpr double kModelBound = 1e-6;

}  // namespace

// comp.mip_poisson's levels are 2x2 box averages of the input, level by level (fp32: the sums of four
// are exact but for the last rounding).
TEST_F(Bigblur, TheMipLevelsAreBoxAveragesOfTheInput) {
  const bb::PoissonDesign d = bb::poisson_design(40, 8);
  ASSERT_GE(d.levels, 4);
  std::vector<std::string> names = {"scene"};
  for (int k = 1; k <= d.levels; ++k) names.push_back("bigblur.level" + std::to_string(k));
  runtime::Sequence seq(env_, {},
                        filters::parse_chain("bigblur.comp.mip_poisson:sigma=40:samples=8:precision=fp32"),
                        {97, 61}, names);
  seq.run();
  const io::ImageF input = seq.image("scene");
  const std::vector<common::ImageD> expected = bb::model::box_levels(bb::model::to_double(input), d.levels);
  for (int k = 1; k <= d.levels; ++k) {
    const io::ImageF level = seq.image(names[size_t(k)]);
    EXPECT_EQ(level.width, expected[size_t(k)].width) << k;
    EXPECT_LE(max_abs(level, expected[size_t(k)]), 1e-6 * largest(input)) << "level " << k;
  }
}

// Every pyramid method against its model, on random data and on the scene, at a few sigmas.
TEST_F(Bigblur, ThePyramidMethodsMatchTheirModels) {
  const io::ImageF random = common::random_image(61, 37, 4, 21), hdr = scene_image(env_, {64, 48});
  std::vector<std::string> points;
  for (double sigma : {3.0, 16.0}) {
    const std::string s = ":sigma=" + std::to_string(sigma) + ":precision=fp32";
    for (const char* rotation : {"none", "ign"})
      points.push_back(std::string("bigblur.comp.mip_poisson:samples=8:rotation=") + rotation + s);
    points.push_back("bigblur.comp.mip_poisson:samples=8:footprint=level" + s);
    points.push_back("bigblur.comp.mip_poisson:samples=8:rotation_cell=3" + s);
    points.push_back("bigblur.comp.dual_filter" + s);
    points.push_back("bigblur.comp.cod13" + s);
  }
  // One level: the dual filter's one pass is its middle pass, down and up at once.
  for (const char* chain : {"dual_filter", "cod13"})
    points.push_back(std::string("bigblur.comp.") + chain + ":sigma=2:precision=fp32");
  for (const std::string& point : points) {
    const filters::ResolvedStep step = filters::resolve(filters::parse_chain(point).at(0));
    const double sigma = step.params.number("sigma");
    for (const io::ImageF* input : {&random, &hdr}) {
      const common::ImageD in = bb::model::to_double(*input);
      common::ImageD expected;
      if (step.method->name == "comp.mip_poisson")
        expected = bb::model::mip_poisson(
            in,
            bb::poisson_design(sigma, step.params.integer("samples"),
                               step.params.choice("footprint") == "trilinear"),
            step.params.choice("rotation") == "ign" ? BIGBLUR_ROTATION_IGN : BIGBLUR_ROTATION_NONE,
            step.params.integer("rotation_cell"));
      else {
        const bb::Chain chain = step.method->name == "comp.dual_filter" ? bb::Chain::Dual : bb::Chain::Cod13;
        expected = bb::model::chain_blur(in, chain, bb::chain_levels(chain, sigma));
      }
      const double error = max_abs(apply(*input, point), expected), range = largest(*input);
      EXPECT_LE(error, kModelBound * range) << point << " on " << input->width << "x" << input->height;
    }
  }
}

// The chains in fp16: the input and every level are stored in halves, so each pass rounds once more.
// One half-ulp a rounding measured up to 1.1x too tight on lavapipe (its stores to half need not
// round to nearest), so the bound is one ulp of the largest value a rounding, 2 levels + 1 of them.
TEST_F(Bigblur, TheChainsMatchTheirModelsInHalfPrecision) {
  const io::ImageF random = common::random_image(61, 37, 4, 22), hdr = scene_image(env_, {64, 48});
  for (const char* method : {"comp.dual_filter", "comp.cod13"})
    for (double sigma : {2.0, 3.0, 16.0}) {
      const std::string point =
          std::string("bigblur.") + method + ":sigma=" + std::to_string(sigma) + ":precision=fp16";
      const bb::Chain chain = std::string(method) == "comp.dual_filter" ? bb::Chain::Dual : bb::Chain::Cod13;
      const int levels = bb::chain_levels(chain, sigma);
      for (const io::ImageF* input : {&random, &hdr}) {
        const common::ImageD expected = bb::model::chain_blur(bb::model::to_double(*input), chain, levels);
        const double ulp = std::exp2(std::floor(std::log2(largest(*input))) - 10);  // of the largest value
        const double bound = (2 * levels + 1) * ulp;
        EXPECT_LE(max_abs(apply(*input, point), expected), bound)
            << point << " on " << input->width << "x" << input->height;
      }
    }
}

// The disk's rotation is interleaved gradient noise at the pixel's integer index, frame 0
// (shaders/filters/common/noise.glsl). One sample on a linear ramp (R = x, G = y at the texel centres,
// which every box level and bilinear tap reproduces exactly away from the borders) makes the output
// the sample's position, centre + rotate(angle) d0: the angle is read back and held to the formula.
TEST_F(Bigblur, TheDiskTurnsByInterleavedGradientNoise) {
  const uint32_t side = 128;
  io::ImageF ramp{side, side, 4, std::vector<float>(side * side * 4, 1.0f)};
  for (uint32_t y = 0; y < side; ++y)
    for (uint32_t x = 0; x < side; ++x) {
      ramp.pixels[(y * side + x) * 4 + 0] = float(x) + 0.5f;
      ramp.pixels[(y * side + x) * 4 + 1] = float(y) + 0.5f;
    }
  const bb::PoissonDesign d = bb::poisson_design(4, 1);
  const io::ImageF out =
      apply(ramp, "bigblur.comp.mip_poisson:sigma=4:samples=1:rotation=ign:precision=fp32");
  // Level `levels` has texels of 2^levels pixels: bilinear between their centres is linear inside.
  const int margin = (1 << d.levels) / 2 + int(std::ceil(d.radius)) + 1;
  ASSERT_LT(2 * margin, int(side));
  const double d0x = d.disk[0][0], d0y = d.disk[0][1];
  double worst = 0, spread = 0;
  int checked = 0;
  for (int y = margin; y < int(side) - margin; ++y)
    for (int x = margin; x < int(side) - margin; ++x) {
      const double vx = out.pixels[(size_t(y) * side + size_t(x)) * 4 + 0] - (x + 0.5);
      const double vy = out.pixels[(size_t(y) * side + size_t(x)) * 4 + 1] - (y + 0.5);
      const double angle = std::atan2(d0x * vy - d0y * vx, d0x * vx + d0y * vy);
      const double expected = 2 * std::numbers::pi * bb::interleaved_gradient_noise(x, y, 0);
      worst = std::max(worst, std::abs(std::remainder(angle - expected, 2 * std::numbers::pi)));
      spread += std::abs(
          std::remainder(expected - 2 * std::numbers::pi * bb::interleaved_gradient_noise(x + 1, y, 0),
                         2 * std::numbers::pi));
      ++checked;
    }
  std::printf("  %d pixels: worst angle error %.3g rad\n", checked, worst);
  // Measured 1.6e-6 rad: fp32 positions (1e-5 px against a sample 2 px out) and the formula's
  // fract(52.98 fract(...)), which magnifies the inner term's rounding 53 times. A formula with any
  // constant changed in its fourth digit, or the pixel's centre for its index, is off by far more.
  EXPECT_LE(worst, 1e-4);
  EXPECT_GT(spread / checked, 1.0) << "neighbouring pixels should turn the disk differently";
}

// With the rotation off and many samples the Poisson blur approaches the Gaussian: on the scene (its
// HDR values clamped to [0, 1] first, so that a few hot pixels do not set the scale), mip_poisson at
// sigma 8 with 64 samples is within RMSE 0.01 and max |error| 0.04 of comp.exact, and closer than
// with 8 (measured on lavapipe: 0.0072 and 0.029 at 64; 0.0165 and 0.072 at 8).
TEST_F(Bigblur, ManySamplesApproachTheGaussian) {
  io::ImageF image = scene_image(env_, {160, 90});
  for (float& v : image.pixels) v = std::clamp(v, 0.0f, 1.0f);
  const common::ImageD exact =
      bb::model::to_double(apply(image, "bigblur.comp.exact:sigma=8:precision=fp32"));
  auto error = [&](int samples) {
    return common::compare(
        apply(image, "bigblur.comp.mip_poisson:sigma=8:rotation=none:precision=fp32:samples=" +
                         std::to_string(samples)),
        exact);
  };
  const common::ErrorStats many = error(64), few = error(8);
  EXPECT_LE(std::sqrt(many.mse), 0.01);
  EXPECT_LE(many.max_abs, 0.04);
  EXPECT_LT(many.mse, few.mse);
  EXPECT_LT(many.max_abs, few.max_abs);
}

// comp.mip_poisson_temporal: the accumulation holds one frame on the first frame, after a camera cut
// and after a resize, and one more each frame in between (up to BIGBLUR_MAX_FRAMES) wherever the
// reprojection stays on the image.
TEST_F(Bigblur, TheTemporalHistoryResetsOnACutAndAResize) {
  scene::SceneSettings settings;  // the camera orbits, objects move
  settings.camera_cuts = {3};
  runtime::Sequence seq(
      env_, settings,
      filters::parse_chain("bigblur.comp.mip_poisson_temporal:sigma=4:samples=8:precision=fp32"), {48, 32},
      {"bigblur.accumulation"});
  uint32_t held = 0;
  for (uint64_t frame = 0; frame < 8; ++frame) {
    if (frame == 6) seq.resize({40, 24});
    seq.run();
    held = (frame == 0 || frame == 3 || frame == 6) ? 1 : held + 1;
    const io::ImageF acc = seq.image("bigblur.accumulation");
    size_t at_count = 0, more = 0;
    for (size_t i = 3; i < acc.pixels.size(); i += 4) {
      at_count += acc.pixels[i] == float(held);
      more += acc.pixels[i] > float(held) + 1e-4f;
    }
    const size_t pixels = acc.pixels.size() / 4;
    EXPECT_EQ(more, 0u) << "frame " << frame;
    if (held == 1) EXPECT_EQ(at_count, pixels) << "frame " << frame << ": the history was used";
    else EXPECT_GT(at_count, pixels / 2) << "frame " << frame << ": the history was not accumulated";
  }
}

// On a still scene the accumulated noise converges: after 16 frames the temporal blur is closer to the
// exact Gaussian than one frame of it, and within SSIM 0.98 (the target, measured on lavapipe
// at 160x90 on the scene's tonemapped colours; bench cannot run a method that reads motion yet).
TEST_F(Bigblur, TheTemporalBlurConvergesOnAStillScene) {
  scene::SceneSettings still;
  still.orbit_camera = false;
  still.animate_objects = false;
  const VkExtent2D size{160, 90};
  const char* step = "bigblur.comp.mip_poisson_temporal:sigma=8:samples=8:precision=fp32";
  // The blur of the scene's HDR colour, tonemapped by the chain's tonemap into `final`.
  runtime::Sequence temporal(env_, still, filters::parse_chain(step), size, {"final"});
  runtime::Sequence exact(env_, still, filters::parse_chain("bigblur.comp.exact:sigma=8:precision=fp32"),
                          size, {"final"});
  exact.run();
  const io::ImageF reference = exact.image("final");
  auto ssim = [&](const io::ImageF& image) {
    double sum = 0;
    for (uint32_t c = 0; c < 3; ++c) sum += common::ssim(image, reference, c);
    return sum / 3;
  };
  temporal.run();
  const double first = ssim(temporal.image("final"));
  for (int frame = 1; frame < 16; ++frame) temporal.run();
  const double sixteen = ssim(temporal.image("final"));
  std::printf("  SSIM against comp.exact: %.4f after 1 frame, %.4f after 16\n", first, sixteen);
  EXPECT_GT(sixteen, first);
  EXPECT_GE(sixteen, 0.98);
}

// In half precision the accumulation keeps converging past 16 frames: its error against the exact
// Gaussian (the HDR outputs) after 64 frames is no larger than after 16 (1% of slack). With the
// accumulation stored as halves it grew over those frames, each frame's rounding entering at full
// weight and decaying at 1 / 64 a frame: by 2.8% here, 17% in bench at 640x360 and sigma 16 (both on
// lavapipe). Stored as fp32, or packed with a shared exponent (as now), it fell by 0.25%.
TEST_F(Bigblur, TheHalfPrecisionTemporalBlurKeepsConverging) {
  scene::SceneSettings still;
  still.orbit_camera = false;
  still.animate_objects = false;
  const VkExtent2D size{160, 90};
  runtime::Sequence temporal(
      env_, still, filters::parse_chain("bigblur.comp.mip_poisson_temporal:sigma=8:samples=8:precision=fp16"),
      size, {"bigblur"});
  runtime::Sequence exact(env_, still, filters::parse_chain("bigblur.comp.exact:sigma=8:precision=fp32"),
                          size, {"bigblur"});
  exact.run();
  const common::ImageD reference = bb::model::to_double(exact.image("bigblur"));
  auto mse = [&] { return common::compare(temporal.image("bigblur"), reference).mse; };
  for (int frame = 0; frame < 16; ++frame) temporal.run();
  const double sixteen = mse();
  for (int frame = 16; frame < 64; ++frame) temporal.run();
  const double sixty_four = mse();
  std::printf("  MSE against comp.exact: %.4g after 16 frames, %.4g after 64\n", sixteen, sixty_four);
  EXPECT_LE(sixty_four, 1.01 * sixteen);
}

// In half precision the accumulation is packed (a shared exponent, 17 bits a channel, the frames) and
// filtered in the shader, four texels gathered; in fp32 it is an RGBA32F image the sampler filters.
// With the camera orbiting and objects moving, the reprojection reads between texels everywhere: the
// two precisions' temporal outputs stay as close as the two precisions' one-frame outputs are, where a
// texel taken from the wrong corner, a channel or the count decoded wrong would part them. A
// sharpening kernel before the blur makes negative values for the sign to carry.
TEST_F(Bigblur, ThePackedAccumulationFollowsMotionAsFp32Does) {
  const scene::SceneSettings moving;  // the camera orbits, objects move
  const VkExtent2D size{96, 64};
  const std::string sharpen = test::temp_dir("bigblur-packed") + "/sharpen.pfm";
  io::write_pfm(sharpen, {3, 3, 1, {0, -2, 0, -2, 9, -2, 0, -2, 0}});
  const std::string before_blur = "convolve.direct.full2d:kernel=" + sharpen + ":precision=fp32,";
  for (const std::string& before : {std::string(), before_blur}) {
    auto outputs = [&](const std::string& method) {
      std::vector<io::ImageF> out;
      float lowest = 0;
      for (const char* precision : {"fp16", "fp32"}) {
        runtime::Sequence seq(
            env_, moving,
            filters::parse_chain(before + "bigblur." + method + ":sigma=2:samples=8:precision=" + precision),
            size, {"bigblur"});
        for (int frame = 0; frame < 12; ++frame) seq.run();
        out.push_back(seq.image("bigblur"));
        for (float v : out.back().pixels) lowest = std::min(lowest, v);
      }
      if (!before.empty()) {
        EXPECT_LT(lowest, -0.01f) << "the sharpened blur has negative values";
      }
      return common::compare(out[0], bb::model::to_double(out[1]));
    };
    const common::ErrorStats one_frame = outputs("comp.mip_poisson");
    const common::ErrorStats temporal = outputs("comp.mip_poisson_temporal");
    std::printf(
        "  %s fp16 against fp32 after 12 frames: max %.3g, MSE %.3g one frame; max %.3g, MSE %.3g "
        "accumulated\n",
        before.empty() ? "scene:" : "sharpened:", one_frame.max_abs, one_frame.mse, temporal.max_abs,
        temporal.mse);
    EXPECT_LE(temporal.mse, 2.0 * one_frame.mse);
    EXPECT_LE(temporal.max_abs, 2.0 * one_frame.max_abs);
  }
}

// bench times the temporal method on its still input (no motion, the camera standing) and measures
// it after 1, 4, 16 and 64 frames of a fresh run against comp.exact; a sweep of samples leaves the
// methods that do not take it timed once.
TEST(BigblurBench, MeasuresTheTemporalMethodAsItConverges) {
  const std::string dir = test::temp_dir("bigblur-bench");
  const auto r = test::run_binary(
      "bench --validation --filter bigblur --methods comp.mip_poisson_temporal,comp.dual_filter --sizes "
      "64x48 "
      "--sweep sigma=4 --sweep samples=8,16 --frames 2 --warmup 1 --warmup-ms 0 --quiet --json " +
      dir + "/b.json");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::ifstream in(dir + "/b.json");
  const nlohmann::json j = nlohmann::json::parse(in);
  int temporal = 0, dual = 0;
  for (const nlohmann::json& c : j["cases"]) {
    if (c["method"] == "comp.dual_filter") ++dual;
    if (c["method"] != "comp.mip_poisson_temporal") continue;
    ++temporal;
    const nlohmann::json& after = c.at("error_after_frames");
    ASSERT_EQ(after.size(), 4u);
    EXPECT_EQ(after[0]["frames"], 1);
    EXPECT_EQ(after[3]["frames"], 64);
    EXPECT_GT(after[2]["ssim"].get<double>(), after[0]["ssim"].get<double>()) << "16 frames against 1";
  }
  EXPECT_EQ(temporal, 2);
  EXPECT_EQ(dual, 1) << "dual filtering takes no samples: timed once";
  EXPECT_EQ(j["validation_messages"], 0);
}
