// GPU tier for comp.tiled (renderer/filters/blur_tiled.cpp): exact against the double-precision CPU
// reference at every radius the device serves, on sizes that are not multiples of the 32x32 tile
// and smaller than one tile; ROIs with the outside poisoned (the convolution writes nothing there)
// and with huge values around the source ROI (it reads nothing there); ROIs that do not fit are
// refused with a ChainError. Validation on.
#include "blur_fixture.h"

#include <cmath>
#include <cstdio>
#include <memory>

using namespace filterlab;

namespace {

class BlurTiled : public test::BlurFixture {
 protected:
  static std::string spec(int radius, const std::string& extra = ":precision=fp32",
                          common::KernelType kernel = common::KernelType::Gaussian) {
    return "gaussian.comp.tiled:radius=" + std::to_string(radius) +
           ":kernel=" + common::kernel_type_name(kernel) + extra;
  }
  static io::ImageF apply(const std::string& spec, const io::ImageF& input) {
    return BlurFixture::apply(filters::parse_chain(spec).at(0), input);
  }
  static std::vector<double> weights(const std::string& spec) {
    return common::kernel_weights(filters::parse_blur_settings(filters::parse_chain(spec).at(0)).kernel);
  }
  static int max_radius() { return BlurFixture::max_radius("comp.tiled"); }
};

const int kRadii[] = {1, 2, 3, 4, 7, 8, 16, 32};
constexpr double kExactTolerance = 1e-5;  // fp32 rounding only, values in [0, 1)
constexpr float kPoison = -1024.0f;       // what outside=poison writes (blur_tiled.cpp)

std::string roi_spec(const common::Roi& r) {  // WxH+X+Y: fits inside a --chain step
  return std::to_string(r.width) + "x" + std::to_string(r.height) + "+" + std::to_string(r.x) + "+" +
         std::to_string(r.y);
}

io::ImageF crop(const io::ImageF& in, const common::Roi& r) {
  io::ImageF out{r.width, r.height, in.channels, {}};
  out.pixels.reserve(size_t(r.width) * r.height * in.channels);
  for (uint32_t y = r.y; y < r.y + r.height; ++y)
    for (uint32_t x = r.x; x < r.x + r.width; ++x)
      for (uint32_t c = 0; c < in.channels; ++c) out.pixels.push_back(in.at(x, y, c));
  return out;
}

// AMD's ROI semantics: inside dst, the blur of the source cropped to src (clamped to its edges);
// outside dst, the input (outside=copy).
common::ImageD expected_with_rois(const io::ImageF& input, const std::vector<double>& w,
                                   const common::Roi& src, const common::Roi& dst) {
  const common::ImageD blurred = common::reference_blur(crop(input, src), w);
  common::ImageD e{input.width, input.height, input.channels, {}};
  e.pixels.reserve(input.pixels.size());
  for (uint32_t y = 0; y < input.height; ++y)
    for (uint32_t x = 0; x < input.width; ++x)
      for (uint32_t c = 0; c < input.channels; ++c) {
        const bool inside = x >= dst.x && x < dst.x + dst.width && y >= dst.y && y < dst.y + dst.height;
        e.pixels.push_back(inside ? blurred.at(x - dst.x, y - dst.y, c) : input.at(x, y, c));
      }
  return e;
}

// Pixels outside `dst` that do not hold the sentinel (all four channels).
size_t unpoisoned_outside(const io::ImageF& out, const common::Roi& dst) {
  size_t bad = 0;
  for (uint32_t y = 0; y < out.height; ++y)
    for (uint32_t x = 0; x < out.width; ++x) {
      if (x >= dst.x && x < dst.x + dst.width && y >= dst.y && y < dst.y + dst.height) continue;
      for (uint32_t c = 0; c < out.channels; ++c)
        if (out.at(x, y, c) != kPoison) {
          ++bad;
          break;
        }
    }
  return bad;
}

struct RoiPair {
  common::Roi src, dst;
};

// On 257x131: edges touched, odd offsets, one row, smaller than a tile, tile-sized, almost all.
const RoiPair kRoiPairs[] = {
    {{0, 0, 100, 50}, {0, 0, 100, 50}},     // both at the top-left corner
    {{157, 81, 100, 50}, {3, 5, 100, 50}},  // source at the bottom-right corner, odd target offset
    {{1, 3, 255, 127}, {2, 0, 255, 127}},   // nearly the whole image, target on the top edge
    {{33, 17, 64, 64}, {97, 31, 64, 64}},   // two tiles square, interior, odd offsets
    {{5, 7, 13, 9}, {243, 121, 13, 9}},     // smaller than a tile, target near the bottom-right
    {{10, 20, 37, 1}, {219, 130, 37, 1}},   // a single row, target on the bottom row
    {{0, 0, 257, 131}, {0, 0, 257, 131}},   // the whole image: nothing outside
    {{71, 0, 1, 131}, {256, 0, 1, 131}},    // a single column, target on the right edge
};

}  // namespace

TEST_F(BlurTiled, ExactAtEveryServedRadius) {
  const io::ImageF image = common::random_image(257, 131, 4, 7);
  const io::ImageF tiny = common::random_image(13, 9, 4, 8);
  const int limit = max_radius();
  std::printf("comp.tiled serves r <= %d on %s (%u bytes of shared memory)\n", limit,
              context_->report().name.c_str(), context_->report().max_compute_shared_memory);
  ASSERT_GE(limit, 16) << "32 KiB of shared memory (lavapipe's) serves r <= 16";
  for (int r : kRadii) {
    if (r > limit) {
      EXPECT_THROW(apply(spec(r), image), filters::ChainError) << "r=" << r << " is beyond the limit";
      std::printf("comp.tiled r=%2d: refused (shared memory)\n", r);
      continue;
    }
    double worst = 0;
    for (const io::ImageF* input : {&image, &tiny}) {
      const common::ErrorStats e =
          common::compare(apply(spec(r), *input), common::reference_blur(*input, weights(spec(r))));
      EXPECT_LE(e.max_abs, kExactTolerance) << "r=" << r << " " << input->width << "x" << input->height
                                            << " worst at " << e.worst_x << "," << e.worst_y;
      worst = std::max(worst, e.max_abs);
    }
    std::printf("comp.tiled r=%2d: max abs error %.3g (257x131 and 13x9, fp32)\n", r, worst);
  }
}

TEST_F(BlurTiled, BoxAndBinomialKernelsAreExactToo) {
  const io::ImageF image = common::random_image(97, 70, 4, 9);
  for (auto kernel : {common::KernelType::Box, common::KernelType::Binomial})
    for (int r : {1, 3, 8}) {
      const std::string s = spec(r, ":precision=fp32", kernel);
      const common::ErrorStats e =
          common::compare(apply(s, image), common::reference_blur(image, weights(s)));
      EXPECT_LE(e.max_abs, kExactTolerance) << common::kernel_type_name(kernel) << " r=" << r;
      std::printf("comp.tiled %s r=%d: max abs error %.3g\n", common::kernel_type_name(kernel), r,
                  e.max_abs);
    }
}

TEST_F(BlurTiled, Fp16IsWithinHalfFloatRounding) {
  const io::ImageF image = common::random_image(67, 45, 4, 13);
  for (int r : {1, 3}) {
    const common::ErrorStats e =
        common::compare(apply(spec(r, ""), image), common::reference_blur(image, weights(spec(r))));
    // fp32 arithmetic, one rounding to half on the store: within 2 half-ulps at 1.0.
    EXPECT_LE(e.max_abs, 2 * std::ldexp(1.0, -11)) << "r=" << r;
    EXPECT_GT(e.max_abs, 0.0) << "fp16 output cannot be exact";
    std::printf("comp.tiled fp16 r=%d: max abs error %.3g\n", r, e.max_abs);
  }
}

TEST_F(BlurTiled, ExactOnTheHdrScene) {
  auto o = test::validated_run(96, 64);
  o.read_images = {"scene"};
  const io::ImageF scene = runtime::run_headless(o).images.at("scene");
  ASSERT_GT(io::channel_max(scene, 0), 4.0f);
  for (int r : {1, 3}) {
    const common::ErrorStats e =
        common::compare(apply(spec(r), scene), common::reference_blur(scene, weights(spec(r))));
    EXPECT_LE(e.max_abs, 50 * kExactTolerance) << "r=" << r;  // values reach ~50: fp32 rounding scales
    std::printf("comp.tiled HDR scene r=%d: max abs error %.3g\n", r, e.max_abs);
  }
}

// Every pixel outside the target ROI still holds the sentinel after the convolution, and every
// pixel inside is exact: the convolution wrote nothing outside it.
TEST_F(BlurTiled, RoisPoisonedOutsideExactInside) {
  const io::ImageF image = common::random_image(257, 131, 4, 21);
  for (int r : {1, 2, 3, 8}) {
    double worst = 0;
    for (const RoiPair& p : kRoiPairs) {
      const std::string s = spec(
          r, ":precision=fp32:outside=poison:src_roi=" + roi_spec(p.src) + ":dst_roi=" + roi_spec(p.dst));
      const io::ImageF out = apply(s, image);
      EXPECT_EQ(unpoisoned_outside(out, p.dst), 0u) << s;
      const common::ErrorStats e =
          common::compare(out, expected_with_rois(image, weights(s), p.src, p.dst), p.dst);
      EXPECT_LE(e.max_abs, kExactTolerance) << s << " worst at " << e.worst_x << "," << e.worst_y;
      worst = std::max(worst, e.max_abs);
    }
    std::printf("comp.tiled ROIs r=%d: max abs error %.3g inside, outside untouched (%zu ROI pairs)\n", r,
                worst, std::size(kRoiPairs));
  }
}

// outside=copy (the default): the whole image is right, the input's pixels outside the target ROI.
TEST_F(BlurTiled, RoisCopyTheInputOutside) {
  const io::ImageF image = common::random_image(257, 131, 4, 22);
  for (int r : {2, 7})
    for (const RoiPair& p : kRoiPairs) {
      const std::string s =
          spec(r, ":precision=fp32:src_roi=" + roi_spec(p.src) + ":dst_roi=" + roi_spec(p.dst));
      const common::ErrorStats e =
          common::compare(apply(s, image), expected_with_rois(image, weights(s), p.src, p.dst));
      EXPECT_LE(e.max_abs, kExactTolerance) << s << " worst at " << e.worst_x << "," << e.worst_y;
    }
}

// Huge values all around the source ROI: one texel read from outside it would cost far more than
// the tolerance, so an exact result proves the convolution reads only inside the source ROI.
TEST_F(BlurTiled, NothingOutsideTheSourceRoiIsRead) {
  const common::Roi src{40, 30, 101, 83};
  io::ImageF image = common::random_image(200, 150, 4, 23);
  for (uint32_t y = 0; y < image.height; ++y)
    for (uint32_t x = 0; x < image.width; ++x)
      if (x < src.x || x >= src.x + src.width || y < src.y || y >= src.y + src.height)
        for (uint32_t c = 0; c < 4; ++c) image.pixels[(size_t(y) * image.width + x) * 4 + c] = 1e4f;
  for (const common::Roi dst :
       {common::Roi{40, 30, 101, 83}, common::Roi{0, 0, 101, 83}, common::Roi{99, 67, 101, 83}})
    for (int r : {1, 2, 4, 7, 16}) {
      const std::string s =
          spec(r, ":precision=fp32:outside=poison:src_roi=" + roi_spec(src) + ":dst_roi=" + roi_spec(dst));
      const io::ImageF out = apply(s, image);
      const common::ErrorStats e =
          common::compare(out, expected_with_rois(image, weights(s), src, dst), dst);
      EXPECT_LE(e.max_abs, kExactTolerance) << s << " worst at " << e.worst_x << "," << e.worst_y;
      EXPECT_EQ(unpoisoned_outside(out, dst), 0u) << s;
    }
}

// The image size is known only when the graph runs: a ROI that leaves the image throws ChainError
// out of apply_filter (nothing submitted), and the device goes on working.
TEST_F(BlurTiled, RoisThatDoNotFitAreRefused) {
  const io::ImageF image = common::random_image(64, 40, 4, 24);
  const char* bad[] = {
      ":src_roi=65x10+0+0:dst_roi=65x10+0+0",   // wider than the image
      ":src_roi=10x10+60+0:dst_roi=10x10+0+0",  // source leaves on the right
      ":src_roi=10x10+0+0:dst_roi=10x10+0+31",  // target leaves at the bottom
      ":src_roi=10x10+0+0:dst_roi=10x10+0+31:outside=poison",
  };
  for (const char* rois : bad) {
    const std::string s = spec(2, std::string(":precision=fp32") + rois);
    try {
      apply(s, image);
      ADD_FAILURE() << s << " was accepted";
    } catch (const filters::ChainError& e) {
      EXPECT_NE(std::string(e.what()).find("does not fit in the 64x40 image"), std::string::npos) << e.what();
    }
  }
  const std::string ok = spec(2, ":precision=fp32:src_roi=10x10+54+30:dst_roi=10x10+0+0");
  const common::ErrorStats e = common::compare(
      apply(ok, image), expected_with_rois(image, weights(ok), {54, 30, 10, 10}, {0, 0, 10, 10}));
  EXPECT_LE(e.max_abs, kExactTolerance);
}

TEST_F(BlurTiled, CliRefusesARoiOutsideTheImage) {
  const auto r = test::run_binary(
      "run --headless --validation --size 64x48 --frames 2 --warmup 1 --chain "
      "gaussian.comp.tiled:radius=2:src_roi=10x10+0+0:dst_roi=10x10+60+0");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("dst_roi 10x10+60+0 does not fit in the 64x48 image"), std::string::npos)
      << r.output;
  EXPECT_EQ(r.output.find("terminate"), std::string::npos) << r.output;
  const auto good = test::run_binary(
      "run --headless --validation --size 64x48 --frames 2 --warmup 1 --chain "
      "gaussian.comp.tiled:radius=2:src_roi=10x10+0+0:dst_roi=10x10+54+38");
  EXPECT_EQ(good.exit_code, 0) << good.output;
}
