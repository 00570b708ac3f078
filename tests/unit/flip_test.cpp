// FLIP's double-precision reference (common/flip.h) against what its definition gives by hand and the
// figures of NVIDIA's reference implementation (NVlabs/flip v1.6): cmax = 41.2760963 (float32), the
// ACES value taken to 0.85 = 2.1188723239873153, the default pixels per degree 67.02064327658226.
#include "common/flip.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace filterlab;

namespace {

io::ImageF flat(uint32_t w, uint32_t h, float r, float g, float b) {
  io::ImageF image{w, h, 3, {}};
  for (size_t p = 0; p < size_t(w) * h; ++p) image.pixels.insert(image.pixels.end(), {r, g, b});
  return image;
}

io::ImageF noise(uint32_t w, uint32_t h, uint32_t seed, float scale) {
  io::ImageF image{w, h, 3, std::vector<float>(size_t(w) * h * 3)};
  uint32_t s = seed;
  for (float& v : image.pixels) {
    s = s * 1664525u + 1013904223u;
    v = scale * float(s >> 8) / 16777216.0f;
  }
  return image;
}

}  // namespace

TEST(Flip, DefaultPixelsPerDegreeIsTheToolsMonitor) {
  EXPECT_NEAR(common::default_pixels_per_degree(), 67.02064327658226, 1e-12);
}

TEST(Flip, AnImageAgainstItselfIsZeroEverywhere) {
  const io::ImageF a = noise(37, 23, 1, 1.0f);
  for (double v : common::ldr_flip(a, a, common::default_pixels_per_degree())) EXPECT_EQ(v, 0.0);
  const io::ImageF hdr = noise(37, 23, 2, 8.0f);
  const common::FlipExposures e = common::flip_exposures(hdr);
  for (double v : common::hdr_flip(hdr, hdr, common::default_pixels_per_degree(), e)) EXPECT_EQ(v, 0.0);
}

// Flat images stay flat through every filter (normalized kernels, replicated edges) and have no
// features: FLIP is the remapped colour difference alone. Green against blue is the largest, 1.
TEST(Flip, FlatImagesGiveTheRemappedColourDifference) {
  const double ppd = common::default_pixels_per_degree();
  // 1 within 1e-8: the definition's XYZ-to-RGB matrix (9 decimals) is not exactly the inverse of its
  // RGB-to-XYZ one, so green comes back from YCxCz a few 1e-10 off.
  for (double v : common::ldr_flip(flat(29, 17, 0, 1, 0), flat(29, 17, 0, 0, 1), ppd))
    EXPECT_NEAR(v, 1.0, 1e-8);
  // Black against white: L* 0 and 100, a* = b* = 0: HyAB 100; 100^0.7 is above pc * cmax.
  const double cmax = 41.2760963, d = std::pow(100.0, 0.7);
  const double expected = 0.95 + (d - 0.4 * cmax) / (cmax - 0.4 * cmax) * 0.05;
  for (double v : common::ldr_flip(flat(29, 17, 0, 0, 0), flat(29, 17, 1, 1, 1), ppd))
    EXPECT_NEAR(v, expected, 1e-7);
  // Values outside [0, 1] are clamped (LDR).
  for (double v : common::ldr_flip(flat(9, 9, -1, -1, -1), flat(9, 9, 3, 3, 3), ppd))
    EXPECT_NEAR(v, expected, 1e-7);
}

// A one-pixel shift of a step edge: the difference lies along the edge (colour and features), and far
// from it the images are equal.
TEST(Flip, AShiftedEdgeDiffersAlongTheEdgeOnly) {
  const uint32_t w = 64, h = 16;
  io::ImageF a = flat(w, h, 0.2f, 0.2f, 0.2f), b = a;
  for (uint32_t y = 0; y < h; ++y)
    for (uint32_t x = 0; x < w; ++x)
      for (uint32_t c = 0; c < 3; ++c) {
        a.pixels[(size_t(y) * w + x) * 3 + c] = x >= 32 ? 0.8f : 0.2f;
        b.pixels[(size_t(y) * w + x) * 3 + c] = x >= 33 ? 0.8f : 0.2f;
      }
  const std::vector<double> map = common::ldr_flip(a, b, common::default_pixels_per_degree());
  EXPECT_GT(map[8 * w + 32], 0.1);
  EXPECT_EQ(map[8 * w + 0], 0.0) << "beyond every kernel's reach of the edge";
  EXPECT_EQ(map[8 * w + 63], 0.0);
  const common::FlipPooled pooled = common::pool_flip(map);
  EXPECT_GT(pooled.max, pooled.mean);
}

// HDR-FLIP's exposures run from the ACES value taken to 0.85 over the largest luminance to it over
// the median; a flat image has one of each, and two exposures.
TEST(Flip, ExposuresComeFromTheReferencesLuminance) {
  const double x = 2.1188723239873153;
  const common::FlipExposures flat_range = common::flip_exposures(flat(8, 8, 0.5f, 0.5f, 0.5f));
  EXPECT_NEAR(flat_range.start, std::log2(x / 0.5), 1e-9);
  EXPECT_NEAR(flat_range.stop, flat_range.start, 1e-12);
  EXPECT_EQ(flat_range.count, 2u);
  // Luminance 1 in one pixel of 9, 1/64 in the rest: the median is 1/64.
  io::ImageF image = flat(3, 3, 1.0f / 64, 1.0f / 64, 1.0f / 64);
  image.pixels[0] = image.pixels[1] = image.pixels[2] = 1.0f;
  const common::FlipExposures e = common::flip_exposures(image);
  EXPECT_NEAR(e.start, std::log2(x), 1e-6);
  EXPECT_NEAR(e.stop, std::log2(x * 64), 1e-6);
  EXPECT_EQ(e.count, 6u);  // ceil(6): log2(64)
  EXPECT_NEAR(e.at(5), e.stop, 1e-12);
  EXPECT_THROW(common::flip_exposures(flat(4, 4, 0, 0, 0)), std::invalid_argument);
}

TEST(Flip, PoolingMeanWeightedMedianAndMax) {
  const common::FlipPooled p = common::pool_flip({0.4, 0.1, 0.3, 0.2});
  EXPECT_DOUBLE_EQ(p.mean, 0.25);
  EXPECT_DOUBLE_EQ(p.weighted_median, 0.3);  // running sums 0.1, 0.3, 0.6: the first past half of 1.0
  EXPECT_DOUBLE_EQ(p.max, 0.4);
  EXPECT_THROW(common::ldr_flip(flat(4, 4, 0, 0, 0), flat(4, 5, 0, 0, 0), 60), std::invalid_argument);
}
