#include "filters/convolve/convolve.h"

#include "common/kernel.h"
#include "filters/convolve/convolve_config.h"
#include "filters/convolve/kernel.h"
#include "filters/convolve/methods.h"
#include "filters/precision.h"

#include <algorithm>
#include <cmath>

namespace filterlab::filters::convolve {
namespace {

// out(x, y) = sum over a, b of k(a, b) in(x + cx - a, y + cy - b), clamp to edge, in double.
common::ImageD reference(const io::ImageF& input, const ParamValues& params) {
  const Kernel k = make_kernel(params);
  common::ImageD out;
  out.width = input.width;
  out.height = input.height;
  out.channels = std::min(input.channels, 4u);
  out.pixels.assign(size_t(out.width) * out.height * out.channels, 0.0);
  const int w = int(input.width), h = int(input.height);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (uint32_t c = 0; c < out.channels; ++c) {
        const int plane = k.plane_of(int(c));
        double sum = 0;
        for (int b = 0; b < k.height; ++b) {
          const int sy = std::clamp(y + k.centre_y() - b, 0, h - 1);
          for (int a = 0; a < k.width; ++a) {
            const int sx = std::clamp(x + k.centre_x() - a, 0, w - 1);
            sum += k.at(plane, a, b) * input.pixels[(size_t(sy) * w + sx) * input.channels + c];
          }
        }
        out.pixels[(size_t(y) * w + x) * out.channels + c] = sum;
      }
  return out;
}

Family make_family() {
  Family f;
  f.name = "convolve";
  f.description =
      "an arbitrary 2D kernel, from a file or generated (Gaussian, disk, hexagon, star glare): directly, as "
      "a sum of "
      "separable terms, or through VkFFT's Fourier transforms";
  Param kernel =
      choice_param("kernel", {"gaussian", "disk", "hexagon", "star"}, "disk",
                   "a generated kernel, or a file: .pfm, or .png read as stored values / 255 (no sRGB "
                   "decoding); one channel for all, or RGB per channel");
  kernel.file_extensions = {".pfm", ".png"};
  Param radius = integer_param("radius", 1, CONVOLVE_MAX_RADIUS, "8",
                               "a generated kernel's radius: 2 radius + 1 texels a side");
  radius.unit = "px";
  radius.is_size = true;
  Param sigma = number_param("sigma", 0.1, 1000, "", "the generated Gaussian's standard deviation");
  // The ideal sigma exists while a box of 2r + 1 texels weighs more than 1/255 each (r <= 126).
  sigma.derived = [](const ParamValues& v) {
    const int r = v.integer("radius");
    return 2 * r + 1 < 255 ? common::ideal_sigma(r) : r / 3.0;
  };
  sigma.derived_text =
      "the Gaussian family's ideal sigma for the radius (its outermost normalized tap weighs 1/255), radius / 3 "
      "from 127";
  sigma.unit = "px";
  Param rays =
      integer_param("rays", 2, 16, "6", "the star's lines through the centre (twice as many spikes)");
  Param normalize = choice_param("normalize", {"true", "false"}, "true",
                                 "scale each channel's kernel to sum 1 (false: use it as it is)");
  Param rank = number_param(
      "rank_error", 0, 1, "2e-6",
      "direct.separable: the largest L1 norm of what the dropped terms leave (bounds their error "
      "on inputs in [0, 1])");
  rank.methods = {"direct.separable"};
  Param transform =
      choice_param("transform", {"fused", "separate"}, "fused",
                   "fft.vkfft: VkFFT's convolution mode (the product inside the last forward and first "
                   "inverse axis), or forward, product and inverse as passes of their own");
  transform.methods = {"fft.vkfft"};
  f.params = {kernel, radius, sigma, rays, normalize, rank, transform, precision_param()};
  f.methods = direct_methods();
  f.methods.push_back(fft_method());
  // auto (the registry's, from the built-in tables): direct below the crossover, the FFT above it, keyed
  // on the kernel's half side, which a kernel file gives by its size rather than by `radius`.
  f.tools.auto_key = [](const ParamValues& v) {
    const Kernel k = make_kernel(v);
    return (std::max(k.width, k.height) - 1) / 2;
  };
  f.check = [](const ParamValues& v) { make_kernel(v); };
  // bench: errors against the direct method on the GPU (the CPU reference of a 255 x 255 kernel at
  // 4K would take minutes a case); the registry test holds that method to the CPU reference.
  f.tools.bench.reference_method = "direct.full2d";
  // tune: the direct method grows as the kernel's area and the FFT stays flat; they cross between
  // small radii, and the largest kernel is where the FFT matters most.
  f.tools.bench.tune_keys = {1, 2, 3, 4, 8, 16, 32, 64, CONVOLVE_MAX_RADIUS};
  f.reference = reference;
  f.test_points = {"kernel=gaussian:radius=2", "kernel=disk:radius=9",
                   "kernel=hexagon:radius=4:normalize=false", "kernel=star:radius=20:rays=3"};
  f.tolerance_fp32 = 1e-5;
  f.tolerance_fp16 = 2 * std::ldexp(1.0, -11);  // the output rounded to half
  // Outputs reach the kernel's L1 norm (inputs in [0, 1)): an unnormalized kernel's rounding grows
  // with it, so the bounds hold times its binade.
  f.tolerance_for = [](const ParamValues& v, bool fp16) {
    const Kernel k = make_kernel(v);
    double largest = 1;
    const size_t n = size_t(k.width) * k.height;
    for (int p = 0; p < k.planes; ++p) {
      double l1 = 0;
      for (size_t i = 0; i < n; ++i) l1 += std::abs(k.values[p * n + i]);
      largest = std::max(largest, l1);
    }
    return (fp16 ? 2 * std::ldexp(1.0, -11) : 1e-5) * std::exp2(std::ceil(std::log2(largest)));
  };
  return f;
}

}  // namespace

const Family& family() {
  static const Family f = make_family();
  return f;
}

}  // namespace filterlab::filters::convolve
