// tier: smoke
// GPU tier: the variance family's standard deviation is numerically sound. On 1000 plus noise in
// fp32, E[x^2] - E[x]^2 cancels all but the noise's last bits (an ulp of 1000^2 is 0.06, the
// variance 0.02): every method of the family (from the registry, nothing listed) shifts its sums by
// a texel of the quad or tile and must hold the standard deviation to 1e-3 of the spread, which
// the unshifted formula misses by far (checked here too, in float on the CPU). Both images a step
// writes (.mean and .stddev) are checked, and the two outputs name the same pair.
#include "gpu_test_util.h"

#include "filters/apply.h"
#include "filters/chain.h"
#include "graph/executor.h"
#include "graph/readback.h"
#include "passes/camera_feed.h"
#include "passes/upload_pass.h"

#include <algorithm>
#include <cmath>
#include <random>

using namespace filterlab;

namespace {

class VarianceShift : public test::ValidatedSuite {
 protected:
  static void SetUpTestSuite() { set_up(true); }
};

constexpr float kOffset = 1000.0f, kNoise = 0.5f;

io::ImageF offset_noise(uint32_t w, uint32_t h) {
  io::ImageF image{w, h, 4, std::vector<float>(size_t(w) * h * 4)};
  std::mt19937 rng(11);
  for (float& v : image.pixels) v = kOffset + kNoise * float(rng() >> 8) / float(1u << 24);
  return image;
}

// The standard deviation as E[x^2] - E[x]^2 in float, clamp to edge: what the shift avoids.
double naive_worst_error(const io::ImageF& in, int r, const common::ImageD& expected) {
  double worst = 0;
  for (uint32_t y = 0; y < in.height; ++y)
    for (uint32_t x = 0; x < in.width; ++x) {
      float sum = 0, sum_sq = 0;
      for (int j = -r; j <= r; ++j)
        for (int i = -r; i <= r; ++i) {
          const float v = in.at(uint32_t(std::clamp(int(x) + i, 0, int(in.width) - 1)),
                                uint32_t(std::clamp(int(y) + j, 0, int(in.height) - 1)), 0);
          sum += v;
          sum_sq += v * v;
        }
      const float n = float((2 * r + 1) * (2 * r + 1)), mean = sum / n;
      const float sd = std::sqrt(std::max(sum_sq / n - mean * mean, 0.0f));
      worst = std::max(worst, std::abs(sd - expected.at(x, y, 0)));
    }
  return worst;
}

TEST_F(VarianceShift, EveryMethodHoldsTheStandardDeviationOfLargeValues) {
  const filters::Family& family = *filters::registry().find("variance");
  const io::ImageF input = offset_noise(37, 21);
  const double spread = kNoise / std::sqrt(12.0);  // of uniform noise
  for (int r : {1, 3}) {
    const std::string radius = std::to_string(r);
    filters::FilterStep probe{"variance", "frag.full2d", {{"radius", radius}, {"output", "stddev"}}, ""};
    const common::ImageD sd = family.reference(input, filters::resolve(probe).params);
    probe.set("output", "mean");
    const common::ImageD mean = family.reference(input, filters::resolve(probe).params);
    EXPECT_GT(naive_worst_error(input, r, sd), 1e-3 * spread) << "the unshifted formula would pass: no test";
    for (const filters::Method& m : family.methods) {
      if (!m.exact) continue;  // coarse derivatives: wrong by design
      for (const char* output : {"mean", "stddev"}) {
        const filters::FilterStep step{
            "variance", m.name, {{"radius", radius}, {"output", output}, {"precision", "fp32"}}, ""};
        const filters::ResolvedStep resolved = filters::resolve(step);
        try {
          filters::check_support(resolved, *context_);
        } catch (const filters::ChainError& e) {
          std::printf("  not here: %s %s\n", m.name.c_str(), e.what());
          continue;
        }
        const io::ImageF out = filters::apply_filter(*context_, *shaders_, input, step);
        const bool is_sd = std::string(output) == "stddev";
        const common::ErrorStats e = common::compare(out, is_sd ? sd : mean);
        // The mean: a few ulps of 1000 (6.1e-5 each); the standard deviation: 1e-3 of the spread.
        EXPECT_LE(e.max_abs, is_sd ? 1e-3 * spread : 4 * 6.1e-5) << m.name << " r=" << r << " " << output;
      }
    }
  }
}

// Both images of a step: the pass writes .mean and .stddev whichever continues the chain, and the
// step's own name is the one that does.
TEST_F(VarianceShift, AStepWritesBothImages) {
  const filters::Family& family = *filters::registry().find("variance");
  const io::ImageF input = common::random_image(19, 11, 4, 3);
  const passes::PassEnv env{*context_, *shaders_, 1};
  for (const filters::Method& m : family.methods) {
    const filters::FilterStep step{"variance", m.name, {{"radius", "2"}, {"precision", "fp32"}}, ""};
    const filters::ResolvedStep resolved = filters::resolve(step);
    try {
      filters::check_support(resolved, *context_);
    } catch (const filters::ChainError&) {
      continue;
    }
    std::unique_ptr<filters::Filter> filter = filters::build_filter(resolved, env);
    graph::RenderGraph graph;
    passes::UploadPass upload(env, input, VK_FORMAT_R32G32B32A32_SFLOAT);
    upload.add_to(graph, "input");
    static const passes::CameraFeed still;
    EXPECT_EQ(filter->add_to(graph, {"input", {}, {}, &still}, "v"), "v") << m.name;
    graph::Executor executor(*context_, 1, false);
    executor.prepare(graph, {"v", "v.mean", "v.stddev"}, {input.width, input.height});
    vk::OneShotCommands commands(*context_);
    commands.run([&](VkCommandBuffer cmd) { executor.record(cmd, 0, 0); });
    filters::FilterStep probe = step;
    probe.set("output", "stddev");
    const common::ErrorStats sd = common::compare(graph::to_float_image(executor.read_image("v.stddev")),
                                                  family.reference(input, filters::resolve(probe).params));
    EXPECT_LE(sd.max_abs, 1e-5) << m.name << ": v.stddev";
    // `v` is the step's continuing image (output=mean, the default): the mean, under its alias.
    const io::ImageF v = graph::to_float_image(executor.read_image("v"));
    const io::ImageF mean = graph::to_float_image(executor.read_image("v.mean"));
    EXPECT_EQ(v.pixels, mean.pixels) << m.name;
  }
}

}  // namespace
