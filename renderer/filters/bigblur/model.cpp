#include "filters/bigblur/model.h"

#include <algorithm>
#include <cmath>

namespace filterlab::filters::bigblur::model {
namespace {

common::ImageD blank(uint32_t width, uint32_t height, uint32_t channels) {
  return {width, height, channels, std::vector<double>(size_t(width) * height * channels, 0.0)};
}

double texel(const common::ImageD& image, int x, int y, uint32_t c) {
  x = std::clamp(x, 0, int(image.width) - 1);
  y = std::clamp(y, 0, int(image.height) - 1);
  return image.pixels[(size_t(y) * image.width + size_t(x)) * image.channels + c];
}

// A bilinear tap at (x, y) in texels (centres at i + 0.5), clamp to edge.
double bilinear(const common::ImageD& image, double x, double y, uint32_t c) {
  const double fx = x - 0.5, fy = y - 0.5;
  const int x0 = int(std::floor(fx)), y0 = int(std::floor(fy));
  const double tx = fx - x0, ty = fy - y0;
  return (1 - ty) * ((1 - tx) * texel(image, x0, y0, c) + tx * texel(image, x0 + 1, y0, c)) +
         ty * ((1 - tx) * texel(image, x0, y0 + 1, c) + tx * texel(image, x0 + 1, y0 + 1, c));
}

double& at(common::ImageD& image, uint32_t x, uint32_t y, uint32_t c) {
  return image.pixels[(size_t(y) * image.width + x) * image.channels + c];
}

}  // namespace

common::ImageD to_double(const io::ImageF& image) {
  return {image.width, image.height, image.channels,
          std::vector<double>(image.pixels.begin(), image.pixels.end())};
}

common::ImageD pyramid_pass(const common::ImageD& s, Pass pass, uint32_t width, uint32_t height) {
  common::ImageD out = blank(width, height, s.channels);
  for (uint32_t y = 0; y < height; ++y)
    for (uint32_t x = 0; x < width; ++x)
      for (uint32_t c = 0; c < s.channels; ++c) {
        auto tap = [&](double dx, double dy, double cx, double cy) {
          return bilinear(s, cx + dx, cy + dy, c);
        };
        double v = 0;
        if (pass == Pass::Box) {
          const int qx = 2 * int(x), qy = 2 * int(y);
          v = 0.25 * (texel(s, qx, qy, c) + texel(s, qx + 1, qy, c) + texel(s, qx, qy + 1, c) +
                      texel(s, qx + 1, qy + 1, c));
        } else if (pass == Pass::Cod13 || pass == Pass::DualDown) {
          const double cx = 2.0 * x + 1.0, cy = 2.0 * y + 1.0;
          if (pass == Pass::Cod13) {
            const double inner =
                tap(-1, -1, cx, cy) + tap(1, -1, cx, cy) + tap(-1, 1, cx, cy) + tap(1, 1, cx, cy);
            const double corners =
                tap(-2, -2, cx, cy) + tap(2, -2, cx, cy) + tap(-2, 2, cx, cy) + tap(2, 2, cx, cy);
            const double edges =
                tap(0, -2, cx, cy) + tap(-2, 0, cx, cy) + tap(2, 0, cx, cy) + tap(0, 2, cx, cy);
            v = 0.125 * inner + 0.03125 * corners + 0.0625 * edges + 0.125 * tap(0, 0, cx, cy);
          } else {
            v = 0.5 * tap(0, 0, cx, cy) +
                0.125 * (tap(-1, -1, cx, cy) + tap(1, -1, cx, cy) + tap(-1, 1, cx, cy) + tap(1, 1, cx, cy));
          }
        } else {
          const double cx = (x + 0.5) * 0.5, cy = (y + 0.5) * 0.5;
          if (pass == Pass::Tent) {
            for (int j = -1; j <= 1; ++j)
              for (int i = -1; i <= 1; ++i)
                v += (2 - std::abs(i)) * (2 - std::abs(j)) / 16.0 * tap(i, j, cx, cy);
          } else {
            v = (tap(-1, 0, cx, cy) + tap(1, 0, cx, cy) + tap(0, -1, cx, cy) + tap(0, 1, cx, cy) +
                 2.0 * (tap(-0.5, -0.5, cx, cy) + tap(0.5, -0.5, cx, cy) + tap(-0.5, 0.5, cx, cy) +
                        tap(0.5, 0.5, cx, cy))) /
                12.0;
          }
        }
        at(out, x, y, c) = v;
      }
  return out;
}

std::vector<common::ImageD> box_levels(const common::ImageD& input, int count) {
  std::vector<common::ImageD> levels = {input};
  for (int k = 1; k <= count; ++k) {
    const common::ImageD& s = levels.back();
    levels.push_back(pyramid_pass(s, Pass::Box, (s.width + 1) / 2, (s.height + 1) / 2));
  }
  return levels;
}

common::ImageD chain_blur(const common::ImageD& input, Chain chain, int levels) {
  std::vector<common::ImageD> down = {input};
  for (int k = 1; k <= levels; ++k) {
    const common::ImageD& s = down.back();
    down.push_back(pyramid_pass(s, chain == Chain::Dual ? Pass::DualDown : Pass::Cod13, (s.width + 1) / 2,
                                (s.height + 1) / 2));
  }
  common::ImageD up = down.back();
  for (int k = levels - 1; k >= 0; --k)
    up = pyramid_pass(up, chain == Chain::Dual ? Pass::DualUp : Pass::Tent, down[size_t(k)].width,
                      down[size_t(k)].height);
  return up;
}

common::ImageD mip_poisson(const common::ImageD& input, const PoissonDesign& d, uint32_t rotation, int cell) {
  const std::vector<common::ImageD> levels = box_levels(input, d.levels);
  const common::ImageD &fine = levels[size_t(d.fine)], &coarse = levels[size_t(d.coarse)];
  const double t = d.lod - d.fine, to_fine = std::exp2(-d.fine), to_coarse = std::exp2(-d.coarse);
  common::ImageD out = blank(input.width, input.height, input.channels);
  for (uint32_t y = 0; y < input.height; ++y)
    for (uint32_t x = 0; x < input.width; ++x) {
      const double angle =
          rotation == BIGBLUR_ROTATION_IGN
              ? 2.0 * 3.14159265358979 * interleaved_gradient_noise(int(x) / cell, int(y) / cell, 0)
              : 0.0;
      const double cs = std::cos(angle), sn = std::sin(angle);
      for (const auto& p : d.disk) {
        const double ax = x + 0.5 + cs * p[0] - sn * p[1], ay = y + 0.5 + sn * p[0] + cs * p[1];
        for (uint32_t c = 0; c < input.channels; ++c) {
          const double v = (1 - t) * bilinear(fine, ax * to_fine, ay * to_fine, c) +
                           t * bilinear(coarse, ax * to_coarse, ay * to_coarse, c);
          at(out, x, y, c) += p[2] * v;
        }
      }
    }
  return out;
}

}  // namespace filterlab::filters::bigblur::model
