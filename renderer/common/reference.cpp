#include "common/reference.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>

namespace filterlab::common {

namespace {

int half_width(const std::vector<double>& weights) {
  if (weights.size() % 2 == 0)
    throw std::invalid_argument("reference blur needs an odd number of weights (2r+1), got " +
                                std::to_string(weights.size()));
  return int(weights.size() / 2);
}

ImageD blank_like(const io::ImageF& input) {
  ImageD out{input.width, input.height, input.channels, {}};
  out.pixels.resize(size_t(input.width) * input.height * input.channels);
  return out;
}

size_t index(uint32_t width, uint32_t channels, int x, int y, uint32_t c) {
  return (size_t(y) * width + size_t(x)) * channels + c;
}

// Valid-region correlation of a w x h map with a separable window g (size k): (w-k+1) x (h-k+1) out.
std::vector<double> filter_valid(const std::vector<double>& src, int w, int h, const std::vector<double>& g) {
  const int k = int(g.size()), ow = w - k + 1, oh = h - k + 1;
  std::vector<double> rows(size_t(ow) * h), out(size_t(ow) * oh);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < ow; ++x) {
      double s = 0;
      for (int i = 0; i < k; ++i) s += g[size_t(i)] * src[size_t(y) * w + x + i];
      rows[size_t(y) * ow + x] = s;
    }
  for (int y = 0; y < oh; ++y)
    for (int x = 0; x < ow; ++x) {
      double s = 0;
      for (int i = 0; i < k; ++i) s += g[size_t(i)] * rows[size_t(y + i) * ow + x];
      out[size_t(y) * ow + x] = s;
    }
  return out;
}

}  // namespace

double ImageD::at(uint32_t x, uint32_t y, uint32_t c) const {
  assert(x < width && y < height && c < channels);
  return pixels[index(width, channels, int(x), int(y), c)];
}

ImageD reference_blur(const io::ImageF& input, const std::vector<double>& weights) {
  const int r = half_width(weights);
  const int w = int(input.width), h = int(input.height);
  const uint32_t nc = input.channels;
  // Horizontal pass into a double intermediate (no float rounding between the passes), then vertical.
  ImageD tmp = blank_like(input), out = blank_like(input);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (uint32_t c = 0; c < nc; ++c) {
        double s = 0;
        for (int i = -r; i <= r; ++i)
          s += weights[size_t(i + r)] *
               input.pixels[index(input.width, nc, std::clamp(x + i, 0, w - 1), y, c)];
        tmp.pixels[index(input.width, nc, x, y, c)] = s;
      }
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (uint32_t c = 0; c < nc; ++c) {
        double s = 0;
        for (int j = -r; j <= r; ++j)
          s += weights[size_t(j + r)] * tmp.pixels[index(input.width, nc, x, std::clamp(y + j, 0, h - 1), c)];
        out.pixels[index(input.width, nc, x, y, c)] = s;
      }
  return out;
}

ImageD reference_blur_2d(const io::ImageF& input, const std::vector<double>& weights) {
  const int r = half_width(weights);
  const int w = int(input.width), h = int(input.height);
  const uint32_t nc = input.channels;
  ImageD out = blank_like(input);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (uint32_t c = 0; c < nc; ++c) {
        double s = 0;
        for (int j = -r; j <= r; ++j)
          for (int i = -r; i <= r; ++i)
            s += weights[size_t(i + r)] * weights[size_t(j + r)] *
                 input.pixels[index(input.width, nc, std::clamp(x + i, 0, w - 1), std::clamp(y + j, 0, h - 1),
                                    c)];
        out.pixels[index(input.width, nc, x, y, c)] = s;
      }
  return out;
}

ErrorStats compare(const io::ImageF& actual, const ImageD& expected, std::optional<Roi> region) {
  if (actual.width != expected.width || actual.height != expected.height)
    throw std::invalid_argument("compare: image sizes differ (" + std::to_string(actual.width) + "x" +
                                std::to_string(actual.height) + " vs " + std::to_string(expected.width) +
                                "x" + std::to_string(expected.height) + ")");
  const Roi roi = region.value_or(Roi{0, 0, actual.width, actual.height});
  if (uint64_t(roi.x) + roi.width > actual.width || uint64_t(roi.y) + roi.height > actual.height)
    throw std::invalid_argument("compare: region leaves the image");
  const uint32_t nc = std::min(actual.channels, expected.channels);
  ErrorStats stats{0, 0, roi.x, roi.y, 0};
  double sum_sq = 0;
  for (uint32_t y = roi.y; y < roi.y + roi.height; ++y)
    for (uint32_t x = roi.x; x < roi.x + roi.width; ++x)
      for (uint32_t c = 0; c < nc; ++c) {
        double d = std::abs(double(actual.at(x, y, c)) - expected.at(x, y, c));
        if (std::isnan(d)) d = std::numeric_limits<double>::infinity();  // a NaN must never look like a pass
        sum_sq += d * d;
        if (d > stats.max_abs) {
          stats.max_abs = d;
          stats.worst_x = x, stats.worst_y = y, stats.worst_c = c;
        }
      }
  const uint64_t count = uint64_t(roi.width) * roi.height * nc;
  stats.mse = count ? sum_sq / double(count) : 0.0;
  return stats;
}

double ssim(const io::ImageF& a, const io::ImageF& b, uint32_t channel) {
  constexpr int kWindow = 11;  // Wang et al. 2004, section III-C: 11x11 Gaussian, sigma 1.5
  constexpr double kSigma = 1.5, C1 = 0.01 * 0.01, C2 = 0.03 * 0.03;  // K1 = 0.01, K2 = 0.03, L = 1
  if (a.width != b.width || a.height != b.height) throw std::invalid_argument("ssim: image sizes differ");
  if (channel >= a.channels || channel >= b.channels)
    throw std::invalid_argument("ssim: channel out of range");
  if (a.width < uint32_t(kWindow) || a.height < uint32_t(kWindow))
    throw std::invalid_argument("ssim: image smaller than the 11x11 window");
  std::vector<double> g(kWindow);
  for (int i = 0; i < kWindow; ++i)
    g[size_t(i)] = std::exp(-double((i - 5) * (i - 5)) / (2 * kSigma * kSigma));
  double gsum = 0;
  for (double v : g) gsum += v;
  for (double& v : g) v /= gsum;

  const int w = int(a.width), h = int(a.height);
  const size_t n = size_t(w) * h;
  std::vector<double> x(n), y(n), xx(n), yy(n), xy(n);
  for (size_t p = 0; p < n; ++p) {
    x[p] = a.pixels[p * a.channels + channel];
    y[p] = b.pixels[p * b.channels + channel];
    xx[p] = x[p] * x[p], yy[p] = y[p] * y[p], xy[p] = x[p] * y[p];
  }
  const auto mx = filter_valid(x, w, h, g), my = filter_valid(y, w, h, g);
  const auto exx = filter_valid(xx, w, h, g), eyy = filter_valid(yy, w, h, g),
             exy = filter_valid(xy, w, h, g);
  double total = 0;
  for (size_t p = 0; p < mx.size(); ++p) {
    // Identical expressions for the a-terms and b-terms make ssim(a, a) exactly 1.
    const double vx = exx[p] - mx[p] * mx[p], vy = eyy[p] - my[p] * my[p], cxy = exy[p] - mx[p] * my[p];
    total +=
        ((2 * mx[p] * my[p] + C1) * (2 * cxy + C2)) / ((mx[p] * mx[p] + my[p] * my[p] + C1) * (vx + vy + C2));
  }
  return total / double(mx.size());
}

io::ImageF random_image(uint32_t width, uint32_t height, uint32_t channels, uint32_t seed) {
  io::ImageF img{width, height, channels, {}};
  img.pixels.resize(size_t(width) * height * channels);
  std::mt19937 rng(seed);
  // Top 24 bits of each 32-bit draw times 2^-24: exactly representable floats in [0, 1).
  for (float& v : img.pixels) v = float(rng() >> 8) * (1.0f / 16777216.0f);
  return img;
}

io::ImageF structured_image(uint32_t width, uint32_t height) {
  io::ImageF img{width, height, 4, {}};
  img.pixels.resize(size_t(width) * height * 4);
  const uint32_t third = std::max(width / 3, 1u);
  for (uint32_t y = 0; y < height; ++y)
    for (uint32_t x = 0; x < width; ++x) {
      float rgb = 0, alpha = 0.75f;
      if (x < third) {
        rgb = y < height / 2 ? 0.7f : 0.15f;  // two flat regions and the step between them
      } else if (x < 2 * third) {
        rgb = x == third + third / 2 ? 0.95f : 0.9f * float(x - third) / float(third);  // a ramp, a line
      } else {
        // An opaque square on transparent black: the alpha edge.
        const uint32_t side = std::max(std::min(width - 2 * third, height) / 2, 1u);
        const bool inside = x >= 2 * third + side / 2 && x < 2 * third + side / 2 + side && y >= height / 4 &&
                            y < height / 4 + side;
        rgb = inside ? 0.99f : 0.0f;
        alpha = inside ? 0.99f : 0.0f;
      }
      float* p = &img.pixels[(size_t(y) * width + x) * 4];
      p[0] = rgb;
      p[1] = 0.5f * rgb;  // exact halves: the channels flat where R is
      p[2] = x < 2 * third ? 0.999f - rgb : 0.25f * rgb;
      p[3] = alpha;
    }
  return img;
}

}  // namespace filterlab::common
