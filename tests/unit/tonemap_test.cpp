// Unit tier: the CPU model of the tonemapping curves (passes::tonemap), at values worked out by hand
// from each curve's formula, and automatic exposure on images whose geometric mean is known.
#include "passes/tonemap_curves.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace filterlab;
using passes::Tonemapper;

namespace {

glm::dvec3 gray(double v) {
  return glm::dvec3(v);
}

}  // namespace

TEST(Tonemap, AcesKnownValues) {
  const io::ImageF img{3, 1, 3, {0, 0, 0, 1e30f, 1e30f, 1e30f, 0.5f, 0.5f, 0.5f}};
  const io::ImageU8 out = passes::hdr_to_display(img);
  ASSERT_EQ(out.rgba.size(), 12u);
  EXPECT_EQ(out.rgba[0], 0);
  EXPECT_EQ(out.rgba[4], 255);
  // x = 0.5: ACES = 0.5*(2.51*0.5+0.03) / (0.5*(2.43*0.5+0.59)+0.14) = 0.6425/1.0425 = 0.616307;
  // sRGB = 1.055*0.616307^(1/2.4) - 0.055 = 0.807319; *255 = 205.87 -> 206.
  EXPECT_EQ(out.rgba[8], 206);
  for (int px = 0; px < 3; ++px) {
    EXPECT_EQ(out.rgba[px * 4 + 1], out.rgba[px * 4]);
    EXPECT_EQ(out.rgba[px * 4 + 2], out.rgba[px * 4]);
    EXPECT_EQ(out.rgba[px * 4 + 3], 255);
  }
  // Exposure scales the input before the curve: 0.25 * 2 == 0.5.
  EXPECT_EQ(passes::hdr_to_display(io::ImageF{1, 1, 1, {0.25f}}, 2.0f).rgba[0], 206);
  // Negative and NaN inputs display as black rather than garbage.
  EXPECT_EQ(passes::hdr_to_display(io::ImageF{1, 1, 1, {-3.0f}}).rgba[0], 0);
  EXPECT_EQ(passes::hdr_to_display(io::ImageF{1, 1, 1, {NAN}}).rgba[0], 0);
}

TEST(Tonemap, EachCurveAtValuesWorkedOutByHand) {
  // Reinhard on luminance: gray 1 -> 1 / (1 + 1); (0.5, 0, 0) has L = 0.1063: 0.5 / 1.1063, and
  // (2, 0, 0) has L = 0.4252: 2 / 1.4252 clamps to 1.
  EXPECT_NEAR(passes::tonemap(gray(1.0), Tonemapper::Reinhard).g, 0.5, 1e-12);
  const glm::dvec3 red = passes::tonemap({0.5, 0.0, 0.0}, Tonemapper::Reinhard);
  EXPECT_NEAR(red.r, 0.5 / (1.0 + 0.2126 * 0.5), 1e-12);
  EXPECT_EQ(red.g, 0.0);
  EXPECT_EQ(passes::tonemap({2.0, 0.0, 0.0}, Tonemapper::Reinhard).r, 1.0);
  // Hable: the white point (11.2, reached at x = 5.6 with the exposure bias of 2) maps to 1; 0 to 0.
  EXPECT_NEAR(passes::tonemap(gray(5.6), Tonemapper::Hable).r, 1.0, 1e-12);
  EXPECT_NEAR(passes::tonemap(gray(0.0), Tonemapper::Hable).r, 0.0, 1e-12);
  // PBR Neutral: below the compression start (0.76) with min >= 0.08, only the 0.04 offset.
  const glm::dvec3 n = passes::tonemap({0.5, 0.3, 0.1}, Tonemapper::Neutral);
  EXPECT_NEAR(n.r, 0.46, 1e-12);
  EXPECT_NEAR(n.g, 0.26, 1e-12);
  EXPECT_NEAR(n.b, 0.06, 1e-12);
  // ... and above it the peak is compressed below 1, never reaching it.
  EXPECT_LT(passes::tonemap(gray(64.0), Tonemapper::Neutral).r, 1.0);
  // AgX: gray stays (nearly) gray, rises with exposure, black is black, 64 is near white.
  double last = -1.0;
  for (double x = 1.0 / 4096; x <= 16.0; x *= 2.0) {  // past 2^4.03 the log encoding saturates
    const glm::dvec3 y = passes::tonemap(gray(x), Tonemapper::Agx);
    EXPECT_NEAR(y.r, y.g, 2e-3) << x;
    EXPECT_NEAR(y.b, y.g, 2e-3) << x;
    EXPECT_GT(y.g, last) << x;
    last = y.g;
  }
  EXPECT_LT(passes::tonemap(gray(0.0), Tonemapper::Agx).g, 1e-3);
  EXPECT_GT(last, 0.9);
  // Every curve: NaN and negative light are black; the output stays in [0, 1].
  for (uint32_t i = 0; i < passes::kTonemapperCount; ++i) {
    const auto t = Tonemapper(i);
    EXPECT_EQ(passes::tonemap(gray(-3.0), t), gray(0.0)) << passes::tonemapper_name(t);
    EXPECT_EQ(passes::tonemap(gray(NAN), t), gray(0.0)) << passes::tonemapper_name(t);
    const glm::dvec3 y = passes::tonemap({1e6, 3.0, 0.01}, t);
    for (int c = 0; c < 3; ++c) EXPECT_TRUE(y[c] >= 0.0 && y[c] <= 1.0) << passes::tonemapper_name(t);
  }
}

TEST(Tonemap, NamesRoundTrip) {
  for (uint32_t i = 0; i < passes::kTonemapperCount; ++i)
    EXPECT_EQ(passes::parse_tonemapper(passes::tonemapper_name(Tonemapper(i))), Tonemapper(i));
  EXPECT_FALSE(passes::parse_tonemapper("filmic"));
}

TEST(Tonemap, AutomaticExposureIsTheKeyOverTheGeometricMean) {
  // Gray 0.02 and 2.0: geometric mean 0.2, so the exposure is 0.18 / 0.2 = 0.9.
  const io::ImageF image{2, 1, 1, {0.02f, 2.0f}};
  EXPECT_NEAR(passes::auto_exposure(image), 0.9, 1e-6);
  // Black pixels count as 1e-4, not 0 (which would make the exposure infinite).
  const io::ImageF black{1, 1, 3, {0.0f, 0.0f, 0.0f}};
  EXPECT_NEAR(passes::auto_exposure(black), 0.18 / 1e-4, 1e-6);
}
