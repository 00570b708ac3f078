#pragma once
// Exact (double-precision) CPU reference for the blur filters, and the metrics the GPU results are
// judged by.
#include <cstdint>
#include <optional>
#include <vector>

#include "common/roi.h"
#include "io/image_io.h"

namespace filterlab::common {

// Double image, same layout as io::ImageF: rows top-down, channels interleaved.
struct ImageD {
  uint32_t width = 0, height = 0, channels = 0;
  std::vector<double> pixels;  // width * height * channels
  double at(uint32_t x, uint32_t y, uint32_t c) const;
};

// out(x,y) = sum_{i,j} w[i] w[j] in(clamp(x+i), clamp(y+j)), i,j in -r..r, clamp to edge, every
// channel; weights has odd size 2r+1 (std::invalid_argument otherwise). Computed separably
// (horizontal pass, then vertical) in double: mathematically identical to the 2D sum.
ImageD reference_blur(const io::ImageF& input, const std::vector<double>& weights);
// The same sum evaluated directly in 2D, (2r+1)^2 terms per sample: the cross-check for reference_blur.
ImageD reference_blur_2d(const io::ImageF& input, const std::vector<double>& weights);

struct ErrorStats {
  double max_abs = 0;
  double mse = 0;
  uint32_t worst_x = 0, worst_y = 0, worst_c = 0;
};

// |actual - expected| over the region (whole image by default) and the first min(channels) channels.
// A NaN in actual counts as an infinite error. Throws std::invalid_argument when the sizes differ or
// the region leaves the image.
ErrorStats compare(const io::ImageF& actual, const ImageD& expected, std::optional<Roi> region = {});

// Mean SSIM (Wang, Bovik, Sheikh, Simoncelli 2004) of one channel: 11x11 circular Gaussian window with
// sigma 1.5 (normalized), C1 = (0.01 L)^2, C2 = (0.03 L)^2, L = 1, averaged over every window position
// that lies fully inside the image (the paper's 'valid' map, no padding). Throws std::invalid_argument
// when the sizes differ, the channel is missing, or the image is smaller than 11x11.
double ssim(const io::ImageF& a, const io::ImageF& b, uint32_t channel);

// Deterministic test image, values in [0,1): std::mt19937 (its output sequence is fixed by the
// standard) mapped by hand, not via std::uniform_real_distribution (whose algorithm is not).
io::ImageF random_image(uint32_t width, uint32_t height, uint32_t channels, uint32_t seed);

// Deterministic RGBA test image of what noise lacks, values in [0, 1): flat regions (where a window's
// spread is 0 and sums of squares cancel), a step between them, a smooth gradient, a one-pixel line,
// and an opaque square on transparent black (alpha edges, colour 0 where alpha is 0).
io::ImageF structured_image(uint32_t width, uint32_t height);

}  // namespace filterlab::common
