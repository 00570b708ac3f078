// tier: smoke
// The fxaa family on what it is for: a hard edge drawn as stair steps, at slopes that make its search
// walk from one step to the whole table. FXAA must bring the edge at least twice as close to the
// analytically anti-aliased one (each pixel the area-weighted mean of the two colours) as the stairs
// are (lavapipe: 2.9 to 5.4 times, RMS), match its CPU reference there (the decisions' margins left
// out, as in the registry's test), and leave a flat image, and one whose contrast is under its
// thresholds, unchanged bit for bit. Both methods, fp32; lavapipe, validation on.
#include "gpu_test_util.h"

#include "filters/apply.h"
#include "filters/chain.h"

#include <algorithm>
#include <cmath>

using namespace filterlab;

namespace {

constexpr float kDark[3] = {0.05f, 0.04f, 0.03f}, kBright[3] = {0.8f, 0.9f, 0.7f};

// The edge y = y0 + slope * x in pixel coordinates (pixel (x, y) spans [x, x+1] x [y, y+1]); below it
// (larger y) is bright. `coverage` of the pixel by the bright side: exact vertical coverage, integrated
// over x by the midpoint rule at 4096 points (the integrand is piecewise linear: error under 1e-6).
double bright_coverage(uint32_t x, uint32_t y, double y0, double slope) {
  constexpr int kSamples = 4096;
  double area = 0;
  for (int i = 0; i < kSamples; ++i) {
    const double edge = y0 + slope * (x + (i + 0.5) / kSamples);
    area += std::clamp(double(y) + 1 - edge, 0.0, 1.0);
  }
  return area / kSamples;
}

struct Edge {
  io::ImageF stairs, antialiased;
};

// `transpose`: the same edge turned a quarter, x for y (a vertical edge for the vertical search).
Edge make_edge(uint32_t width, uint32_t height, double y0, double slope, bool transpose) {
  const uint32_t w = transpose ? height : width, h = transpose ? width : height;
  Edge e{{w, h, 4, std::vector<float>(size_t(w) * h * 4)}, {w, h, 4, std::vector<float>(size_t(w) * h * 4)}};
  for (uint32_t y = 0; y < height; ++y)
    for (uint32_t x = 0; x < width; ++x) {
      const double cover = bright_coverage(x, y, y0, slope);
      // The stairs: the colour at the pixel's centre.
      const bool bright = y + 0.5 > y0 + slope * (x + 0.5);
      const size_t i = transpose ? (size_t(x) * w + y) * 4 : (size_t(y) * w + x) * 4;
      for (int c = 0; c < 3; ++c) {
        e.stairs.pixels[i + c] = bright ? kBright[c] : kDark[c];
        e.antialiased.pixels[i + c] = float(cover * kBright[c] + (1 - cover) * kDark[c]);
      }
      e.stairs.pixels[i + 3] = e.antialiased.pixels[i + 3] = 1.0f;
    }
  return e;
}

double rms_rgb(const io::ImageF& a, const io::ImageF& b) {
  double sum = 0;
  for (size_t p = 0; p < size_t(a.width) * a.height; ++p)
    for (int c = 0; c < 3; ++c) {
      const double d = double(a.pixels[p * a.channels + c]) - b.pixels[p * b.channels + c];
      sum += d * d;
    }
  return std::sqrt(sum / (3.0 * a.width * a.height));
}

class Fxaa : public test::ValidatedSuite {
 protected:
  io::ImageF apply(const io::ImageF& input, const std::string& method,
                   std::vector<filters::RawParam> params = {}) {
    filters::FilterStep step{"fxaa", method, std::move(params), ""};
    step.set("precision", "fp32");
    step.text = filters::step_spec(step);
    return filters::apply_filter(*context_, *shaders_, input, step);
  }

  // The output against the family's reference, the pixels within its epsilon of a decision left out.
  void expect_reference(const io::ImageF& input, const io::ImageF& output, const std::string& what) {
    const filters::FilterStep step{"fxaa", "", {{"precision", "fp32"}}, "fxaa"};
    const filters::ResolvedStep resolved = filters::resolve(step);
    const filters::Family& family = *resolved.family;
    const common::ImageD expected = family.reference(input, resolved.params);
    const std::vector<double> margins = family.decisions->margins(input, resolved.params);
    size_t left_out = 0;
    double worst = 0;
    for (uint32_t y = 0; y < input.height; ++y)
      for (uint32_t x = 0; x < input.width; ++x) {
        if (margins[size_t(y) * input.width + x] < family.decisions->epsilon) {
          ++left_out;
          continue;
        }
        for (uint32_t c = 0; c < 4; ++c)
          worst = std::max(worst, std::abs(double(output.at(x, y, c)) - expected.at(x, y, c)));
      }
    EXPECT_LE(worst, family.tolerance_fp32) << what;
    EXPECT_LE(double(left_out), family.decisions->max_fraction * input.width * input.height) << what;
  }
};

TEST_F(Fxaa, SmoothsAStairSteppedEdge) {
  struct Case {
    double y0, slope;
  };
  // Stairs 4, 5, 12 and 40 pixels long (the last walks the search's whole table), each also turned
  // a quarter; the edges start off the pixel grid.
  for (const Case& k : {Case{0.2, 0.25}, Case{4.3, 0.2}, Case{12.4, 1.0 / 12}, Case{14.45, 1.0 / 40}})
    for (bool transpose : {false, true}) {
      const Edge edge = make_edge(160, 40, k.y0, k.slope, transpose);
      const double before = rms_rgb(edge.stairs, edge.antialiased);
      for (const char* method : {"comp.fxaa", "frag.fxaa"}) {
        const std::string what =
            std::string(method) + ", slope " + std::to_string(k.slope) + (transpose ? ", turned" : "");
        const io::ImageF out = apply(edge.stairs, method);
        const double after = rms_rgb(out, edge.antialiased);
        std::printf("  %s: RMS error against the antialiased edge %.4f, stairs %.4f\n", what.c_str(), after,
                    before);
        EXPECT_LT(after, 0.5 * before) << what;
        expect_reference(edge.stairs, out, what);
      }
    }
}

TEST_F(Fxaa, LeavesAFlatImageAndLowContrastUnchanged) {
  // Flat, in HDR; and a ramp whose neighbours differ by less than either threshold.
  io::ImageF flat{37, 23, 4, {}}, ramp{37, 23, 4, {}};
  for (uint32_t y = 0; y < 23; ++y)
    for (uint32_t x = 0; x < 37; ++x) {
      for (float v : {3.5f, 2.0f, 0.25f, 1.0f}) flat.pixels.push_back(v);
      const float g = 0.2f + 0.002f * float(x + y);
      for (float v : {g, g, g, 0.5f}) ramp.pixels.push_back(v);
    }
  for (const char* method : {"comp.fxaa", "frag.fxaa"})
    for (const io::ImageF* image : {&flat, &ramp}) {
      // The most eager settings: every contrast above 0.063 of the brightest luma is an edge.
      const io::ImageF out =
          apply(*image, method, {{"edge_threshold", "0.063"}, {"edge_threshold_min", "0"}, {"subpix", "1"}});
      EXPECT_EQ(out.pixels, image->pixels) << method << (image == &flat ? " flat" : " ramp");
    }
}

}  // namespace
