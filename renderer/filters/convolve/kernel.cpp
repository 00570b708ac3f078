#include "filters/convolve/kernel.h"

#include "common/kernel.h"
#include "filters/convolve/convolve_config.h"
#include "filters/convolve/memo.h"
#include "io/image_files.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <numbers>

namespace filterlab::filters::convolve {
namespace {

// A shape's coverage of each texel, from 4 x 4 samples: antialiased edges, the same on every
// machine.
template <typename Inside>
Kernel coverage(int radius, Inside inside) {
  Kernel k;
  k.width = k.height = 2 * radius + 1;
  k.values.resize(size_t(k.width) * k.height);
  for (int b = 0; b < k.height; ++b)
    for (int a = 0; a < k.width; ++a) {
      double sum = 0;
      for (int sy = 0; sy < 4; ++sy)
        for (int sx = 0; sx < 4; ++sx) {
          const double x = a - radius + (sx + 0.5) / 4 - 0.5, y = b - radius + (sy + 0.5) / 4 - 0.5;
          sum += inside(x, y);
        }
      k.values[size_t(b) * k.width + a] = sum / 16;
    }
  return k;
}

Kernel from_file(const std::string& path) {
  auto fail = [&](const std::string& why) { throw ChainError("convolve: kernel " + path + ": " + why); };
  io::ImageHeader header;
  try {
    header = io::read_image_header(path);
  } catch (const std::exception& e) {
    fail(e.what());
  }
  if (header.width == 0 || header.height == 0) fail("it is empty");
  if (header.width > CONVOLVE_MAX_KERNEL || header.height > CONVOLVE_MAX_KERNEL)
    fail(std::to_string(header.width) + "x" + std::to_string(header.height) + " is larger than " +
         std::to_string(CONVOLVE_MAX_KERNEL) + " a side");
  io::ImageF image;
  try {
    image = io::read_image_file(path, io::Encoding::Raw, io::Alpha::AsStored);  // weights as stored
  } catch (const std::exception& e) {
    fail(e.what());
  }
  Kernel k;
  k.width = int(image.width);
  k.height = int(image.height);
  const uint32_t colours = std::min(image.channels, 3u);
  bool grey = true;
  for (size_t p = 0; p < size_t(k.width) * k.height; ++p) {
    for (uint32_t c = 0; c < colours; ++c)
      if (!std::isfinite(image.pixels[p * image.channels + c])) fail("it holds NaN or Inf");
    for (uint32_t c = 1; c < colours; ++c)
      grey = grey && image.pixels[p * image.channels + c] == image.pixels[p * image.channels];
  }
  k.planes = grey ? 1 : 4;
  const size_t n = size_t(k.width) * k.height;
  k.values.resize(n * k.planes);
  for (size_t p = 0; p < n; ++p) {
    if (grey) {
      k.values[p] = image.pixels[p * image.channels];
      continue;
    }
    double mean = 0;
    for (uint32_t c = 0; c < 3; ++c) {
      k.values[c * n + p] = image.pixels[p * image.channels + c];
      mean += image.pixels[p * image.channels + c] / 3.0;
    }
    k.values[3 * n + p] = mean;
  }
  return k;
}

}  // namespace

Kernel generated_kernel(const std::string& shape, int radius, double sigma, int rays) {
  if (shape == "gaussian") {
    // The Gaussian family's weights (the same truncation and normalization), as an outer product.
    const std::vector<double> w = common::kernel_weights({common::KernelType::Gaussian, radius, sigma});
    Kernel k;
    k.width = k.height = 2 * radius + 1;
    for (int b = 0; b < k.height; ++b)
      for (int a = 0; a < k.width; ++a) k.values.push_back(w[size_t(b)] * w[size_t(a)]);
    return k;
  }
  const double edge = radius + 0.5;
  if (shape == "disk") return coverage(radius, [&](double x, double y) { return x * x + y * y <= edge * edge; });
  if (shape == "hexagon") {
    // Regular, vertices left and right, circumradius radius + 1/2.
    return coverage(radius, [&](double x, double y) {
      const double apothem = edge * std::sqrt(3.0) / 2, ax = std::abs(x), ay = std::abs(y);
      return ay <= apothem && std::sqrt(3.0) * ax + ay <= std::sqrt(3.0) * edge;
    });
  }
  // star: a small core and `rays` diffraction spikes through the centre, fading to the edge.
  const double core = 0.05 * radius + 0.6;
  Kernel k;
  k.width = k.height = 2 * radius + 1;
  k.values.resize(size_t(k.width) * k.height);
  for (int b = 0; b < k.height; ++b)
    for (int a = 0; a < k.width; ++a) {
      const double x = a - radius, y = b - radius, d = std::hypot(x, y);
      double v = std::exp(-d * d / (2 * core * core));
      for (int m = 0; m < rays; ++m) {
        const double angle = std::numbers::pi * m / rays, along = std::abs(x * std::cos(angle) + y * std::sin(angle)),
                     across = std::abs(-x * std::sin(angle) + y * std::cos(angle));
        if (along < edge) v += 0.25 * std::exp(-across * across / 0.72) * std::pow(1 - along / edge, 2);
      }
      k.values[size_t(b) * k.width + a] = v;
    }
  return k;
}

namespace {

Kernel build_kernel(const ParamValues& params) {
  const std::string& source = params.choice("kernel");
  Kernel k = (source == "gaussian" || source == "disk" || source == "hexagon" || source == "star")
                 ? generated_kernel(source, params.integer("radius"), params.number("sigma"), params.integer("rays"))
                 : from_file(source);
  if (params.choice("normalize") == "false") return k;
  const size_t n = size_t(k.width) * k.height;
  for (int p = 0; p < k.planes; ++p) {
    std::vector<double> plane(k.values.begin() + p * n, k.values.begin() + (p + 1) * n);
    double magnitude = 0;
    for (double v : plane) magnitude += std::abs(v);
    const double sum = common::compensated_sum(plane);
    if (!(std::abs(sum) > 1e-9 * magnitude) || magnitude == 0)
      throw ChainError("convolve: kernel " + source + (k.planes > 1 ? " (plane " + std::to_string(p) + ")" : "") +
                       " sums to 0 and cannot be normalized (give normalize=false to use it as it is)");
    for (size_t i = 0; i < n; ++i) k.values[p * n + i] /= sum;
  }
  return k;
}

}  // namespace

Kernel make_kernel(const ParamValues& params) {
  static Memo<Kernel> kept;
  // The parameters the kernel depends on, and a file's size and time: an edited file is read again.
  std::string key = params.choice("kernel") + "|" + std::to_string(params.integer("radius")) + "|" +
                    std::to_string(params.number("sigma")) + "|" + std::to_string(params.integer("rays")) + "|" +
                    params.choice("normalize");
  std::error_code missing;
  const auto size = std::filesystem::file_size(params.choice("kernel"), missing);
  const auto time = std::filesystem::last_write_time(params.choice("kernel"), missing);
  if (!missing) key += "|" + std::to_string(size) + "|" + std::to_string(time.time_since_epoch().count());
  return kept.get(key, [&] { return build_kernel(params); });
}

}  // namespace filterlab::filters::convolve
