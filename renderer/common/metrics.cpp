#include "common/metrics.h"

#include "common/reference.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace filterlab::common {

namespace {

void check_sizes(const io::ImageF& a, const io::ImageF& b) {
  if (a.width != b.width || a.height != b.height)
    throw std::invalid_argument("image sizes differ: " + std::to_string(a.width) + "x" +
                                std::to_string(a.height) + " against " + std::to_string(b.width) + "x" +
                                std::to_string(b.height));
}

}  // namespace

ImageMetrics image_metrics(const io::ImageF& a, const io::ImageF& b, uint32_t max_channels) {
  check_sizes(a, b);
  ImageMetrics m;
  m.channels = std::min({a.channels, b.channels, max_channels});
  const size_t pixels = size_t(a.width) * a.height;
  double sum = 0;
  size_t compared = 0;
  for (size_t p = 0; p < pixels; ++p) {
    bool finite = true;
    for (uint32_t c = 0; c < m.channels; ++c) {
      const bool fa = std::isfinite(a.pixels[p * a.channels + c]),
                 fb = std::isfinite(b.pixels[p * b.channels + c]);
      m.nonfinite_a += !fa;
      m.nonfinite_b += !fb;
      finite = finite && fa && fb;
    }
    if (!finite) continue;
    ++compared;
    for (uint32_t c = 0; c < m.channels; ++c) {
      const double d = double(a.pixels[p * a.channels + c]) - double(b.pixels[p * b.channels + c]);
      sum += d * d;
      m.max_abs = std::max(m.max_abs, std::abs(d));
    }
  }
  m.mse = compared ? sum / (double(compared) * m.channels) : 0;
  m.psnr = m.mse > 0 ? 10 * std::log10(1.0 / m.mse) : std::numeric_limits<double>::infinity();
  if (a.width >= 11 && a.height >= 11 && m.nonfinite_a + m.nonfinite_b == 0) {
    double total = 0;
    for (uint32_t c = 0; c < m.channels; ++c) total += ssim(a, b, c);
    m.ssim = total / m.channels;
  }
  return m;
}

io::ImageU8 difference_heatmap(const io::ImageF& a, const io::ImageF& b, double gain) {
  check_sizes(a, b);
  const uint32_t channels = std::min(a.channels, b.channels);
  const size_t pixels = size_t(a.width) * a.height;
  std::vector<double> diff(pixels, 0.0);
  std::vector<bool> nonfinite(pixels, false);  // NaN or infinity in either image, or an infinite gap
  for (size_t p = 0; p < pixels; ++p)
    for (uint32_t c = 0; c < channels; ++c) {
      const double d = std::abs(double(a.pixels[p * a.channels + c]) - double(b.pixels[p * b.channels + c]));
      if (!std::isfinite(d)) nonfinite[p] = true;
      else diff[p] = std::max(diff[p], d);
    }
  if (gain <= 0) {  // the largest finite difference is white
    double worst = 0;
    for (size_t p = 0; p < pixels; ++p)
      if (!nonfinite[p]) worst = std::max(worst, diff[p]);
    gain = worst > 0 ? 1.0 / worst : 1.0;
  }
  io::ImageU8 out{a.width, a.height, std::vector<uint8_t>(pixels * 4, 255)};
  for (size_t p = 0; p < pixels; ++p) {
    uint8_t* rgba = &out.rgba[p * 4];
    if (nonfinite[p]) {
      std::copy(std::begin(kNonfiniteColour), std::end(kNonfiniteColour), rgba);
      continue;
    }
    const double t = std::clamp(diff[p] * gain, 0.0, 1.0) * 3;  // black -> red -> yellow -> white
    rgba[0] = uint8_t(std::lround(std::clamp(t, 0.0, 1.0) * 255));
    rgba[1] = uint8_t(std::lround(std::clamp(t - 1, 0.0, 1.0) * 255));
    rgba[2] = uint8_t(std::lround(std::clamp(t - 2, 0.0, 1.0) * 255));
  }
  return out;
}

}  // namespace filterlab::common
