// tier: smoke
// The running-sum methods (variance comp.running, tent comp.running) over the longest runs they
// make: a 16384-wide row of 1000 plus noise at their largest radius, fp32. Their sums slide down
// strips and are prefix-summed across each strip's span of columns (192 at r = 32), relative to a
// texel of the strip; each output must stay within 2x the error of the family's direct method
// (frag.full2d: every window summed afresh) and within 1e-5 of the largest value. Lavapipe,
// validation on.
#include "gpu_test_util.h"

#include "filters/apply.h"
#include "filters/chain.h"
#include "filters/common/window_config.h"

#include <random>

using namespace filterlab;

namespace {

constexpr float kOffset = 1000.0f, kNoise = 0.5f;

class RunningSums : public test::ValidatedSuite {
 protected:
  // The largest error of `method` on `input` against the family's reference.
  double error_of(const io::ImageF& input, const std::string& family, const std::string& method,
                  const std::vector<std::pair<std::string, std::string>>& params) {
    filters::FilterStep step{family, method, params, ""};
    step.set("precision", "fp32");
    const io::ImageF out = filters::apply_filter(*context_, *shaders_, input, step);
    const filters::ResolvedStep resolved = filters::resolve(step);
    return common::compare(out, resolved.family->reference(input, resolved.params)).max_abs;
  }

  void check(const io::ImageF& input, const std::string& family,
             const std::vector<std::pair<std::string, std::string>>& params, const std::string& what) {
    const double running = error_of(input, family, "comp.running", params);
    const double direct = error_of(input, family, "frag.full2d", params);
    std::printf("  %s: comp.running %.3g, frag.full2d %.3g\n", what.c_str(), running, direct);
    EXPECT_LE(running, 2 * direct) << what;
    EXPECT_LE(running, 1e-5 * (kOffset + kNoise)) << what;
  }
};

io::ImageF long_row() {
  io::ImageF image{16384, 1, 4, std::vector<float>(16384 * 4)};
  std::mt19937 rng(5);
  for (float& v : image.pixels) v = kOffset + kNoise * float(rng() >> 8) / float(1u << 24);
  return image;
}

}  // namespace

TEST_F(RunningSums, VarianceHoldsALongRow) {
  const io::ImageF input = long_row();
  const std::string r = std::to_string(WINDOW_RUNNING_MAX_RADIUS);
  for (const char* output : {"mean", "stddev"})
    check(input, "variance", {{"radius", r}, {"output", output}},
          std::string("variance ") + output + " r=" + r);
}

TEST_F(RunningSums, TentHoldsALongRow) {
  const io::ImageF input = long_row();
  const std::string r = std::to_string(WINDOW_RUNNING_MAX_RADIUS);
  for (const char* kernel : {"rank2", "separable"})
    check(input, "tent", {{"radius", r}, {"kernel", kernel}}, std::string("tent ") + kernel + " r=" + r);
}
