#pragma once
// Image-against-image metrics: `filterlab compare`, the quality tables and (with #3) the A/B panel.
// Values on the 0..1 scale; means over the channels both images have (at most RGB when one of
// them is a 3-channel PFM).
#include "io/image_io.h"

#include <optional>

namespace filterlab::common {

struct ImageMetrics {
  uint32_t channels = 0;
  // NaN or infinite samples of each image in the channels compared. Their pixels are left out of
  // MSE and max |a-b|, and SSIM is not computed (a window holding one would be NaN).
  size_t nonfinite_a = 0, nonfinite_b = 0;
  double mse = 0;              // mean over pixels and channels
  double psnr = 0;             // 10 log10(1 / mse); +infinity when mse == 0
  std::optional<double> ssim;  // mean of per-channel SSIM; none when an image is under 11x11
  double max_abs = 0;
};

// Over the first min(a.channels, b.channels, max_channels) channels (3: RGB, leaving alpha out).
// Throws std::invalid_argument when the sizes differ.
ImageMetrics image_metrics(const io::ImageF& a, const io::ImageF& b, uint32_t max_channels = 4);

// |a - b| (largest over the channels) times gain, through a black-red-yellow-white ramp; gain <= 0
// picks 1 / (the largest finite difference) so that it is white. A pixel whose difference is not
// finite (NaN or infinity in either image) is kNonfiniteColour, off the ramp.
inline constexpr uint8_t kNonfiniteColour[4] = {0, 255, 255, 255};  // cyan
io::ImageU8 difference_heatmap(const io::ImageF& a, const io::ImageF& b, double gain = 0);

}  // namespace filterlab::common
