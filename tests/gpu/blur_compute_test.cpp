// GPU tier for blur_compute.cpp (comp.full2d_shared, comp.separable_shared): exact against the
// double-precision CPU reference at every radius the device serves, on odd sizes, on an image smaller
// than one workgroup tile, for every kernel type, in fp16 and on the HDR scene. Validation on.
#include "blur_fixture.h"

#include "filters/blur_methods.h"

#include <algorithm>
#include <cmath>
#include <memory>

using namespace filterlab;

namespace {

class BlurCompute : public test::BlurFixture {};

const char* const kMethods[] = {"comp.full2d_shared", "comp.separable_shared"};
const int kRadii[] = {1, 2, 3, 4, 7, 8, 16, 32};

// Exact methods: fp32 rounding only. The bound is 1e-5 absolute for values in [0, 1).
constexpr double kExactTolerance = 1e-5;

filters::BlurSettings settings_for(const char* method, int radius) {
  return filters::parse_blur_settings(
      filters::parse_chain("gaussian." + std::string(method) + ":radius=" + std::to_string(radius)).at(0));
}

}  // namespace

TEST_F(BlurCompute, MethodsAreRegisteredAsExactComputeMethods) {
  for (const char* name : kMethods) {
    const filters::BlurMethod* m = filters::find_blur_method(name);
    ASSERT_NE(m, nullptr) << name;
    EXPECT_STREQ(m->stage, "compute");
    EXPECT_TRUE(m->exact);
    EXPECT_FALSE(m->takes_roi);
    EXPECT_GT(std::string(m->description).size(), 0u);
  }
  EXPECT_EQ(filters::find_blur_method("comp.full2d_shared")->passes, 1);
  EXPECT_EQ(filters::find_blur_method("comp.separable_shared")->passes, 2);
}

TEST_F(BlurCompute, CostsCountTheApronAndTheSharedTraffic) {
  const filters::BlurMethod* full2d = filters::find_blur_method("comp.full2d_shared");
  const filters::BlurMethod* separable = filters::find_blur_method("comp.separable_shared");
  ASSERT_TRUE(full2d && separable);
  // full2d, r = 1: 16x64 outputs per group (4 per thread), cache 18 x 66.
  filters::MethodCost c = full2d->cost(1);
  EXPECT_DOUBLE_EQ(c.fetches, 18.0 * 66 / (16 * 64));
  EXPECT_DOUBLE_EQ(c.shared_writes, c.fetches);
  EXPECT_DOUBLE_EQ(c.shared_reads, 6.0 * 3 / 4);  // (2r + K)(2r + 1) / K
  // r = 16: 16x16 outputs, cache 48 x 48, one output per thread: every tap is a shared read.
  c = full2d->cost(16);
  EXPECT_DOUBLE_EQ(c.fetches, 48.0 * 48 / 256);
  EXPECT_DOUBLE_EQ(c.shared_reads, 33.0 * 33);
  // separable, r = 8: horizontal 256 outputs per row segment, vertical 64 per column segment,
  // 4 outputs per thread in both; the horizontal pass stages its outputs through shared memory
  // (one more write and read per pixel).
  c = separable->cost(8);
  EXPECT_DOUBLE_EQ(c.fetches, 272.0 / 256 + 80.0 / 64);
  EXPECT_DOUBLE_EQ(c.shared_writes, c.fetches + 1);
  EXPECT_DOUBLE_EQ(c.shared_reads, 2 * 20.0 / 4 + 1);
  // Fetches from device memory always beat the fragment baselines' 2(2r+1) and (2r+1)^2.
  for (int r : kRadii) {
    EXPECT_LT(separable->cost(r).fetches, filters::fetches_separable(r)) << r;
    EXPECT_LT(full2d->cost(r).fetches, filters::fetches_full2d(r)) << r;
  }
}

TEST_F(BlurCompute, SupportFollowsTheDevicesSharedMemory) {
  const uint32_t shared = context_->report().max_compute_shared_memory;
  const int full2d = max_radius("comp.full2d_shared");
  const int separable = max_radius("comp.separable_shared");
  std::printf("device shared memory %u bytes: comp.full2d_shared serves r <= %d, comp.separable_shared r <= %d\n",
              shared, full2d, separable);
  // The separable method serves every radius on any device with 32 KiB (lavapipe, NVIDIA 48 KiB).
  if (shared >= 32 * 1024) {
    EXPECT_EQ(separable, filters::kMaxRadius);
    // full2d's 16x16 tile at r = 14 needs (16 + 28)^2 vec4 = 30976 bytes; r = 19, 46656 bytes.
    EXPECT_GE(full2d, 14);
  }
  if (shared >= 48 * 1024) {
    EXPECT_GE(full2d, 19);
  }
  if (shared < 64 * 1024) {
    EXPECT_LT(full2d, filters::kMaxRadius);
  }

  // A radius past the limit is refused when the filter is created, naming the limit.
  if (full2d < filters::kMaxRadius) {
    const filters::BlurSettings settings = settings_for("comp.full2d_shared", full2d + 1);
    passes::PassEnv env{*context_, *shaders_, 1};
    try {
      filters::BlurFilter filter(env, settings);
      ADD_FAILURE() << "radius " << full2d + 1 << " was accepted";
    } catch (const filters::ChainError& e) {
      EXPECT_NE(std::string(e.what()).find("up to " + std::to_string(full2d)), std::string::npos) << e.what();
    }
  }
}

TEST_F(BlurCompute, ExactAtEveryServedRadiusOnOddAndTinyImages) {
  const io::ImageF image = filters::random_image(257, 131, 4, 7);
  const io::ImageF tiny = filters::random_image(13, 9, 4, 8);  // smaller than any workgroup tile
  for (const char* method : kMethods) {
    const int limit = max_radius(method);
    double worst = 0;
    int served = 0;
    std::string radii;
    for (int r : kRadii) {
      if (r > limit) continue;
      ++served;
      radii += (radii.empty() ? "" : ",") + std::to_string(r);
      for (const io::ImageF* input : {&image, &tiny}) {
        const filters::ErrorStats e = run(method, r, *input);
        EXPECT_LE(e.max_abs, kExactTolerance) << method << " r=" << r << " " << input->width << "x" << input->height
                                              << " worst at " << e.worst_x << "," << e.worst_y;
        worst = std::max(worst, e.max_abs);
      }
    }
    EXPECT_GT(served, 0) << method;
    std::printf("%s fp32: max abs error %.3g over r in {%s} on 257x131 and 13x9\n", method, worst, radii.c_str());
  }
}

TEST_F(BlurCompute, SizesAroundTheTileEdges) {
  // One texel more and less than a tile or line segment in each direction, and a one-pixel line.
  for (const char* method : kMethods)
    for (auto [w, h] : {std::pair{15u, 17u}, {17u, 63u}, {255u, 65u}, {256u, 64u}, {1u, 70u}, {300u, 1u}}) {
      const io::ImageF image = filters::random_image(w, h, 4, w * 1000 + h);
      for (int r : {3, 8}) {
        const filters::ErrorStats e = run(method, r, image);
        EXPECT_LE(e.max_abs, kExactTolerance) << method << " r=" << r << " " << w << "x" << h;
      }
    }
}

TEST_F(BlurCompute, BoxAndBinomialKernelsAreExactToo) {
  const io::ImageF image = filters::random_image(31, 17, 4, 9);
  for (auto kernel : {filters::KernelType::Box, filters::KernelType::Binomial})
    for (const char* method : kMethods) {
      double worst = 0;
      for (int r : {1, 3, 8}) {
        const filters::ErrorStats e = run(method, r, image, ":precision=fp32", kernel);
        EXPECT_LE(e.max_abs, kExactTolerance) << method << " " << filters::kernel_type_name(kernel) << " r=" << r;
        worst = std::max(worst, e.max_abs);
      }
      std::printf("%s %s fp32: max abs error %.3g over r in {1,3,8}\n", method, filters::kernel_type_name(kernel),
                  worst);
    }
}

TEST_F(BlurCompute, Fp16PathIsWithinHalfFloatRounding) {
  const io::ImageF image = filters::random_image(67, 45, 4, 13);
  for (const char* method : kMethods) {
    double worst = 0;
    for (int r : {1, 3, 8}) {
      const filters::ErrorStats e = run(method, r, image, "");  // default precision: fp16 images
      // Output rounding to half (2^-11 relative, values < 1) plus the separable method's fp16
      // intermediate: 2 half-ulps at 1.0.
      EXPECT_LE(e.max_abs, 2 * std::ldexp(1.0, -11)) << method << " r=" << r;
      EXPECT_GT(e.max_abs, 0.0) << method << ": fp16 output cannot be exact";
      worst = std::max(worst, e.max_abs);
    }
    std::printf("%s fp16: max abs error %.3g over r in {1,3,8} (bound %.3g)\n", method, worst,
                2 * std::ldexp(1.0, -11));
  }
}

TEST_F(BlurCompute, ExactOnTheHdrScene) {
  auto o = test::validated_run(96, 64);
  o.read_images = {"scene"};
  const io::ImageF scene = headless::run_headless(o).images.at("scene");
  ASSERT_GT(io::channel_max(scene, 0), 4.0f);
  for (const char* method : kMethods) {
    double worst = 0;
    for (int r : {3, 8}) {
      const filters::ErrorStats e = run(method, r, scene);
      // Values reach ~50 here: fp32 rounding scales with them.
      EXPECT_LE(e.max_abs, 50 * kExactTolerance) << method << " r=" << r;
      worst = std::max(worst, e.max_abs);
    }
    std::printf("%s fp32 HDR scene: max abs error %.3g over r in {3,8}\n", method, worst);
  }
}
