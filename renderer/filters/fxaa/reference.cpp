#include "filters/fxaa/reference.h"

#include "filters/fxaa/fxaa_config.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace filterlab::filters::fxaa {
namespace {

constexpr int kSteps[FXAA_STEP_COUNT] = {FXAA_STEP_LIST};
// A pixel reading more ambiguous colours than this is not explored (2^n runs): it counts as
// undecided.
constexpr size_t kMostAmbiguous = 4;

using Colour = std::array<double, 4>;

// The smallest margin of the decisions a pixel takes.
class Margin {
 public:
  // `a >= b` or `a <= b` decided: how far a lay from b.
  void decided(double a, double b) { at_most(std::abs(a - b)); }
  void at_most(double margin) { value_ = std::min(value_, margin); }
  double value() const { return value_; }

 private:
  double value_ = std::numeric_limits<double>::infinity();
};

using Rgb = std::array<float, 3>;

// The input as the GPU samples it: clamp-to-edge, missing channels 0 and a missing alpha 1 (the
// upload's convention); and its lumas, rounded to their levels. A luma within kLumaEpsilon of a
// level's half may round the other way on the GPU: such colours are recorded, and those in
// `flipped` are rounded the other way. Colours, not pixels: the GPU gives one colour one luma
// wherever it lies, so that a flat area stays flat either way.
class Texels {
 public:
  Texels(const io::ImageF& image, std::vector<Rgb> flipped) : image_(image), flipped_(std::move(flipped)) {}
  Colour at(int x, int y) const {
    x = std::clamp(x, 0, int(image_.width) - 1);
    y = std::clamp(y, 0, int(image_.height) - 1);
    Colour c = {0, 0, 0, 1};
    for (uint32_t k = 0; k < std::min(image_.channels, 4u); ++k)
      c[k] = image_.pixels[(size_t(y) * image_.width + x) * image_.channels + k];
    return c;
  }
  double luma_at(int x, int y) {
    const Colour c = at(x, y);
    const double scaled = unrounded_luma(c[0], c[1], c[2]) * FXAA_LUMA_STEPS;
    const double below = std::floor(scaled), fraction = scaled - below;
    double level = fraction < 0.5 ? below : below + 1;  // as floor(x + 0.5)
    const double distance = std::abs(fraction - 0.5) / FXAA_LUMA_STEPS;
    if (distance < kLumaEpsilon) {
      const Rgb colour = {float(c[0]), float(c[1]), float(c[2])};
      if (!contains(ambiguous_, colour)) {
        ambiguous_.push_back(colour);
        nearest_ = std::min(nearest_, distance);
      }
      if (contains(flipped_, colour)) level = fraction < 0.5 ? below + 1 : below;
    }
    return level / FXAA_LUMA_STEPS;
  }
  const std::vector<Rgb>& ambiguous() const { return ambiguous_; }
  double nearest() const { return nearest_; }  // the ambiguous lumas' least distance to a half
  static bool contains(const std::vector<Rgb>& list, const Rgb& colour) {
    return std::find(list.begin(), list.end(), colour) != list.end();
  }

 private:
  const io::ImageF& image_;
  std::vector<Rgb> flipped_, ambiguous_;
  double nearest_ = std::numeric_limits<double>::infinity();
};

// fxaa.glsl's fxaa(). Its lumas are multiples of 1 / FXAA_LUMA_STEPS (a power of two) in [0, 1], so
// that the direction, the side, the end search and the sign test compare sums and halves of a few
// of them, exact in float as in double: decided alike on both, no margin. What is not exact is the
// rounding of each luma to its level and the contrast test's product with a threshold.
Colour filter_pixel(Texels& t, int x, int y, const Settings& s, Margin& margin) {
  const Colour centre = t.at(x, y);
  const double m = t.luma_at(x, y);
  const double n = t.luma_at(x, y - 1), so = t.luma_at(x, y + 1);
  const double w = t.luma_at(x - 1, y), e = t.luma_at(x + 1, y);
  const double range_max = std::max({n, so, w, e, m});
  const double range = range_max - std::min({n, so, w, e, m});
  const double contrast = std::max(s.edge_threshold_min, s.edge_threshold * range_max);
  // A range of 0 is exact, and never above a threshold.
  if (range > 0) margin.decided(range, contrast);
  if (range <= contrast) return centre;

  const double nw = t.luma_at(x - 1, y - 1), ne = t.luma_at(x + 1, y - 1);
  const double sw = t.luma_at(x - 1, y + 1), se = t.luma_at(x + 1, y + 1);
  const double edge_h =
      std::abs((nw + sw) - 2 * w) + 2 * std::abs((n + so) - 2 * m) + std::abs((ne + se) - 2 * e);
  const double edge_v =
      std::abs((nw + ne) - 2 * n) + 2 * std::abs((w + e) - 2 * m) + std::abs((sw + se) - 2 * so);
  // Ties are common (with the signs of the six second differences alike in pairs, the two sums are
  // equal identically): the reason the lumas are made exact.
  const bool horizontal = edge_h >= edge_v;
  const int along_x = horizontal ? 1 : 0, along_y = horizontal ? 0 : 1;

  const double before = horizontal ? n : w, after = horizontal ? so : e;
  const bool toward_before = std::abs(before - m) >= std::abs(after - m);
  const int sign = toward_before ? -1 : 1;
  const int across_x = horizontal ? 0 : sign, across_y = horizontal ? sign : 0;
  const double pair = toward_before ? before : after;
  const double gradient = std::max(std::abs(before - m), std::abs(after - m));
  const double edge_luma = 0.5 * (m + pair);
  const double threshold = 0.25 * gradient;

  std::array<int, 2> distance = {0, 0};
  std::array<double, 2> end_luma = {0, 0};
  for (int way = 0; way < 2; ++way) {
    const int dir = way == 0 ? -1 : 1;
    for (int step : kSteps) {
      distance[way] += step;
      const int qx = x + distance[way] * dir * along_x, qy = y + distance[way] * dir * along_y;
      end_luma[way] = 0.5 * (t.luma_at(qx, qy) + t.luma_at(qx + across_x, qy + across_y)) - edge_luma;
      if (std::abs(end_luma[way]) >= threshold) break;
    }
  }
  const bool nearer_before = distance[0] < distance[1];
  const double dist = nearer_before ? distance[0] : distance[1];
  const double span = distance[0] + distance[1];
  const double end = nearer_before ? end_luma[0] : end_luma[1];
  const bool good_span = (end < 0) != (m - edge_luma < 0);
  const double edge_offset = good_span ? 0.5 - dist / span : 0;

  const double low_pass = (2 * (n + so + w + e) + (nw + ne + sw + se)) / 12;
  const double c = std::clamp(std::abs(low_pass - m) / range, 0.0, 1.0);
  const double f = (3 - 2 * c) * c * c;
  const double subpix_offset = f * f * s.subpix;

  const double offset = std::max(edge_offset, subpix_offset);
  const Colour other = t.at(x + across_x, y + across_y);
  Colour out;
  for (int k = 0; k < 4; ++k) out[k] = centre[k] + offset * (other[k] - centre[k]);
  return out;
}

}  // namespace

double unrounded_luma(double r, double g, double b) {
  const double l = std::max(FXAA_LUMA_R * r + FXAA_LUMA_G * g + FXAA_LUMA_B * b, 0.0);
  return std::sqrt(l / (1 + l));
}

Reference reference(const io::ImageF& input, const Settings& settings) {
  Reference out;
  out.image = common::ImageD{input.width, input.height, input.channels, {}};
  out.image.pixels.resize(input.pixels.size());
  out.margins.resize(size_t(input.width) * input.height);
  const uint32_t channels = std::min(input.channels, 4u);
  for (uint32_t y = 0; y < input.height; ++y)
    for (uint32_t x = 0; x < input.width; ++x) {
      Margin margin;
      Texels nominal(input, {});
      const Colour c = filter_pixel(nominal, int(x), int(y), settings, margin);
      const size_t i = size_t(y) * input.width + x;
      for (uint32_t k = 0; k < channels; ++k) out.image.pixels[i * input.channels + k] = c[k];
      // Lumas the GPU may round the other way: every way of rounding them, and the pixel counts as
      // undecided only where one changes its value (an edge's, not a flat area's).
      const std::vector<Rgb>& ambiguous = nominal.ambiguous();
      bool matters = ambiguous.size() > kMostAmbiguous;
      for (uint32_t subset = 1; !matters && subset < (1u << ambiguous.size()); ++subset) {
        std::vector<Rgb> flipped;
        for (size_t k = 0; k < ambiguous.size(); ++k)
          if (subset & (1u << k)) flipped.push_back(ambiguous[k]);
        Texels other(input, flipped);
        const Colour alternative = filter_pixel(other, int(x), int(y), settings, margin);
        for (const Rgb& colour : other.ambiguous()) matters |= !Texels::contains(ambiguous, colour);
        for (uint32_t k = 0; k < 4; ++k)
          matters |= std::abs(alternative[k] - c[k]) > 1e-9 * (1 + std::abs(c[k]));
      }
      if (matters) margin.at_most(nominal.nearest());
      out.margins[i] = margin.value();
    }
  return out;
}

}  // namespace filterlab::filters::fxaa
