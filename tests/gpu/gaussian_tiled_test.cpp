// GPU tier for comp.tiled (renderer/filters/gaussian/tiled.cpp): its radius limit, ROIs with the
// outside poisoned (the convolution writes nothing there) and with huge values around the source
// ROI (it reads nothing there), ROIs that do not fit are refused with a ChainError. Its exactness
// without ROIs is registry_reference_test.cpp's. The family's reference (renderer/filters/gaussian/
// family.cpp) implements AMD's ROI semantics. Validation on.
#include "gaussian_fixture.h"

#include "filters/gaussian/gaussian_config.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>

using namespace filterlab;

namespace {

class GaussianTiled : public test::GaussianFixture {
 protected:
  static filters::FilterStep step(int radius, const std::string& extra) {
    return filters::parse_chain("gaussian.comp.tiled:radius=" + std::to_string(radius) + extra).at(0);
  }
  // The step's output against the family's reference, over `region` (the whole image by default).
  static common::ErrorStats error(const filters::FilterStep& s, const io::ImageF& input,
                                  std::optional<common::Roi> region = {}) {
    return common::compare(apply(s, input), reference(input, s), region);
  }
};

constexpr double kExactTolerance = 1e-5;  // fp32 rounding only, values in [0, 1)
constexpr float kPoison = TILED_POISON;   // what outside=poison writes

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

TEST_F(GaussianTiled, RefusesRadiiPastWhatSharedMemoryHolds) {
  const int limit = max_radius("comp.tiled", "fp32");
  std::printf("comp.tiled serves r <= %d on %s (%u bytes of shared memory)\n", limit,
              context_->report().name.c_str(), context_->report().max_compute_shared_memory);
  ASSERT_GE(limit, 16) << "32 KiB of shared memory (lavapipe's) serves r <= 16";
  const io::ImageF image = common::random_image(37, 23, 4, 7);
  EXPECT_LE(error(step(limit, ":precision=fp32"), image).max_abs, kExactTolerance);
  if (limit < 32) {
    try {
      apply(step(limit + 1, ":precision=fp32"), image);
      ADD_FAILURE() << "r=" << limit + 1 << " is beyond the limit";
    } catch (const filters::ChainError& e) {
      EXPECT_NE(std::string(e.what()).find("serves radius up to " + std::to_string(limit)), std::string::npos)
          << e.what();
    }
  }
}

// Every pixel outside the target ROI still holds the sentinel after the convolution, and every
// pixel inside is exact: the convolution wrote nothing outside it.
TEST_F(GaussianTiled, RoisPoisonedOutsideExactInside) {
  const io::ImageF image = common::random_image(257, 131, 4, 21);
  for (int r : {1, 2, 3, 8}) {
    double worst = 0;
    for (const RoiPair& p : kRoiPairs) {
      const filters::FilterStep s =
          step(r, ":precision=fp32:outside=poison:src_roi=" + common::roi_text(p.src) +
                      ":dst_roi=" + common::roi_text(p.dst));
      const io::ImageF out = apply(s, image);
      EXPECT_EQ(unpoisoned_outside(out, p.dst), 0u) << s.text;
      const common::ErrorStats e = common::compare(out, reference(image, s), p.dst);
      EXPECT_LE(e.max_abs, kExactTolerance) << s.text << " worst at " << e.worst_x << "," << e.worst_y;
      worst = std::max(worst, e.max_abs);
    }
    std::printf("comp.tiled ROIs r=%d: max abs error %.3g inside, outside untouched (%zu ROI pairs)\n", r,
                worst, std::size(kRoiPairs));
  }
}

// outside=copy (the default): the whole image is right, the input's pixels outside the target ROI.
TEST_F(GaussianTiled, RoisCopyTheInputOutside) {
  const io::ImageF image = common::random_image(257, 131, 4, 22);
  for (int r : {2, 7})
    for (const RoiPair& p : kRoiPairs) {
      const filters::FilterStep s = step(
          r, ":precision=fp32:src_roi=" + common::roi_text(p.src) + ":dst_roi=" + common::roi_text(p.dst));
      const common::ErrorStats e = error(s, image);
      EXPECT_LE(e.max_abs, kExactTolerance) << s.text << " worst at " << e.worst_x << "," << e.worst_y;
    }
}

// Huge values all around the source ROI: one texel read from outside it would cost far more than
// the tolerance, so an exact result proves the convolution reads only inside the source ROI.
TEST_F(GaussianTiled, NothingOutsideTheSourceRoiIsRead) {
  const common::Roi src{40, 30, 101, 83};
  io::ImageF image = common::random_image(200, 150, 4, 23);
  for (uint32_t y = 0; y < image.height; ++y)
    for (uint32_t x = 0; x < image.width; ++x)
      if (x < src.x || x >= src.x + src.width || y < src.y || y >= src.y + src.height)
        for (uint32_t c = 0; c < 4; ++c) image.pixels[(size_t(y) * image.width + x) * 4 + c] = 1e4f;
  for (const common::Roi dst :
       {common::Roi{40, 30, 101, 83}, common::Roi{0, 0, 101, 83}, common::Roi{99, 67, 101, 83}})
    for (int r : {1, 2, 4, 7, 16}) {
      const filters::FilterStep s =
          step(r, ":precision=fp32:outside=poison:src_roi=" + common::roi_text(src) +
                      ":dst_roi=" + common::roi_text(dst));
      const io::ImageF out = apply(s, image);
      const common::ErrorStats e = common::compare(out, reference(image, s), dst);
      EXPECT_LE(e.max_abs, kExactTolerance) << s.text << " worst at " << e.worst_x << "," << e.worst_y;
      EXPECT_EQ(unpoisoned_outside(out, dst), 0u) << s.text;
    }
}

// A ROI that leaves the image throws ChainError out of apply_filter before anything is recorded,
// and the device goes on working.
TEST_F(GaussianTiled, RoisThatDoNotFitAreRefused) {
  const io::ImageF image = common::random_image(64, 40, 4, 24);
  const char* bad[] = {
      ":src_roi=65x10+0+0:dst_roi=65x10+0+0",   // wider than the image
      ":src_roi=10x10+60+0:dst_roi=10x10+0+0",  // source leaves on the right
      ":src_roi=10x10+0+0:dst_roi=10x10+0+31",  // target leaves at the bottom
      ":src_roi=10x10+0+0:dst_roi=10x10+0+31:outside=poison",
  };
  for (const char* rois : bad) {
    const filters::FilterStep s = step(2, std::string(":precision=fp32") + rois);
    try {
      apply(s, image);
      ADD_FAILURE() << s.text << " was accepted";
    } catch (const filters::ChainError& e) {
      EXPECT_NE(std::string(e.what()).find("does not fit in the 64x40 image"), std::string::npos) << e.what();
    }
  }
  EXPECT_LE(error(step(2, ":precision=fp32:src_roi=10x10+54+30:dst_roi=10x10+0+0"), image).max_abs,
            kExactTolerance);
}

TEST_F(GaussianTiled, CliRefusesARoiOutsideTheImage) {
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
