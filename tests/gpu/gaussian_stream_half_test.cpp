// GPU tier for comp.separable_stream_half: comp.separable_stream with its horizontal step in packed
// half arithmetic. It is not exact, so it is held to stated bounds against the double-precision CPU
// reference (its bound_fp16, which registry_reference_test.cpp also holds it to at every test point
// and on the HDR scene), on strip-edge sizes, and beside the exact method on the same images. Inputs are rounded to half first, as a
// chain of fp16 images feeds them, so the bounds measure the arithmetic and not the upload.
// Validation on.
//
// The bounds. Values in [0, 1), so a half-ulp at 1.0 is 2^-11:
// - The exact method's error is the rounding of its fp16 sums and output: 2 half-ulps at most.
// - The half step adds the rounding of its weights and of each FMA. In the worst case the roundings
//   of 2r + 2 sums below 1 could line up; random inputs never come near: on the H100, with fused
//   FMAs, at most 1.55 half-ulps at 4K (r <= 32), and on lavapipe, which rounds each product and
//   each sum apart, 2.0. Bound: 3 half-ulps.
// - The mean squared error shows the added rounding better than the maximum: on the H100 it was
//   1.5x the exact method's at r = 1 and 1.15x at r = 8; on lavapipe 2.0x at r = 1 and 1.25x at
//   r = 8. Bound: 2.5x. With one boundary tap dropped it was 290x (7.5 half-ulps), and a shader that
//   computed in fp32 would equal the exact method, which the test also refuses.
#include "gaussian_fixture.h"

#include "filters/gaussian/gaussian.h"
#include "vk/formats.h"

#include <algorithm>
#include <cmath>

using namespace filterlab;

namespace {

class GaussianStreamHalf : public test::GaussianFixture {
 protected:
  // The method needs half arithmetic in shaders (lavapipe has it).
  static bool half_arithmetic() { return context_->report().shader_float16; }
};

const char* const kHalf = "comp.separable_stream_half";
const char* const kExact = "comp.separable_stream";
const double kHalfUlp = std::ldexp(1.0, -11);  // at 1.0
const double kMaxBound = 3 * kHalfUlp;
const double kMseRatioBound = 2.5;

io::ImageF half_random_image(uint32_t width, uint32_t height, uint32_t seed) {
  io::ImageF image = common::random_image(width, height, 4, seed);
  for (float& v : image.pixels) v = vk::half_to_float(vk::float_to_half(v));
  return image;
}

const std::string kFp16 = ":precision=fp16";

}  // namespace

TEST_F(GaussianStreamHalf, IsAnInexactComputeMethodServingFp16ImagesOnly) {
  const filters::Method* m = filters::gaussian::family().find(kHalf);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->stage, filters::Stage::Compute);
  EXPECT_FALSE(m->exact);
  EXPECT_EQ(m->passes, 1);
  ASSERT_TRUE(m->bound_fp16.has_value());
  EXPECT_EQ(*m->bound_fp16, kMaxBound);  // what the registry's reference test holds it to
  EXPECT_FALSE(m->bound_fp32.has_value());

  const filters::Support fp32 = filters::device_support(filters::resolve(blur_step(kHalf, 4, ":precision=fp32")), *context_);
  EXPECT_FALSE(fp32.available());
  EXPECT_NE(fp32.reason.find("fp16 images only"), std::string::npos) << fp32.reason;
  // A chain that asks for it in fp32 is refused with that reason.
  passes::PassEnv env{*context_, *shaders_, 1};
  try {
    filters::build_filter(filters::resolve(blur_step(kHalf, 4, ":precision=fp32")), env);
    ADD_FAILURE() << "fp32 was accepted";
  } catch (const filters::ChainError& e) {
    EXPECT_NE(std::string(e.what()).find("is not available: computes in half precision"), std::string::npos)
        << e.what();
  }

  // Lavapipe has shaderFloat16: the method serves the same radii as the exact one.
  if (half_arithmetic()) {
    EXPECT_EQ(max_radius(kHalf), max_radius(kExact));
  } else {
    const filters::Support fp16 = filters::device_support(filters::resolve(blur_step(kHalf, 4, kFp16)), *context_);
    EXPECT_NE(fp16.reason.find("shaderFloat16"), std::string::npos);
  }
}

TEST_F(GaussianStreamHalf, WithinThreeHalfUlpsOnOddSizes) {
  if (!half_arithmetic()) GTEST_SKIP() << "no shaderFloat16 on this device";
  // The exact stream test's sizes: short last strips, strips whose lag crosses both image edges, a
  // width of one strip plus one column.
  const int limit = max_radius(kHalf);
  ASSERT_GT(limit, 0) << "unavailable on this device";
  double worst = 0;
  for (auto [w, h] : {std::pair{65u, 521u}, {130u, 300u}, {64u, 129u}, {3u, 385u}, {71u, 17u}}) {
    const io::ImageF image = half_random_image(w, h, w * 7 + h);
    for (int r : {1, 2, 3, 4, 5, 8, 13, 16, limit}) {
      if (r > limit) continue;
      const common::ErrorStats e = run(kHalf, r, image, kFp16);
      EXPECT_LE(e.max_abs, kMaxBound)
          << "r=" << r << " " << w << "x" << h << " worst at " << e.worst_x << "," << e.worst_y;
      worst = std::max(worst, e.max_abs);
    }
  }
  std::printf("%s: max abs error %.3g half-ulps at 1.0 up to r = %d (bound 3)\n", kHalf, worst / kHalfUlp,
              limit);
}

TEST_F(GaussianStreamHalf, AddsLittleMeanSquaredErrorToTheExactMethod) {
  if (!half_arithmetic()) GTEST_SKIP() << "no shaderFloat16 on this device";
  const io::ImageF image = half_random_image(257, 131, 11);
  const int limit = max_radius(kHalf);
  for (int r : {1, 2, 4, 8, 16, 32}) {
    if (r > limit) continue;
    const common::ErrorStats half = run(kHalf, r, image, kFp16);
    const common::ErrorStats exact = run(kExact, r, image, kFp16);
    const double ratio = half.mse / exact.mse;
    std::printf("r=%2d  mse: exact %.3g, half %.3g (x%.2f); max abs: exact %.3g, half %.3g\n", r, exact.mse,
                half.mse, ratio, exact.max_abs, half.max_abs);
    EXPECT_LE(ratio, kMseRatioBound) << "r=" << r;
    EXPECT_GT(ratio, 1.0) << "r=" << r << ": as accurate as fp32 arithmetic, so not computing in half";
  }
}
