#pragma once
// The convolve family's kernel: from a file (.pfm, or .png read as stored values / 255) or generated
// (Gaussian, disk, hexagon, star glare), normalized per plane to sum 1 unless normalize=false.
//
// Definition (docs/families/convolve.md): out(x, y) = sum over a, b of k(a, b) in(x + cx - a,
// y + cy - b), clamp to edge, where (a, b) runs over the kernel's columns and rows from its top left
// and (cx, cy) = (w / 2, h / 2) is its centre: the middle texel of an odd size. One bright pixel
// becomes the kernel's own picture, upright, centred on it.
#include "filters/family.h"

#include <string>
#include <vector>

namespace filterlab::filters::convolve {

struct Kernel {
  int width = 0, height = 0;
  // 1: one kernel for every channel; 4: red, green, blue from the file's channels, and alpha by
  // their mean.
  int planes = 1;
  std::vector<double> values;  // planes x height x width, rows from the top

  double at(int plane, int a, int b) const { return values[(size_t(plane) * height + b) * width + a]; }
  int centre_x() const { return width / 2; }
  int centre_y() const { return height / 2; }
  // The plane channel c (0..3) is filtered with.
  int plane_of(int channel) const { return planes == 1 ? 0 : channel; }
};

// The step's kernel, checked: throws ChainError naming the parameter for a kernel file that is
// missing, corrupt, empty, larger than CONVOLVE_MAX_KERNEL a side, holds NaN or Inf, or cannot be
// normalized (a plane summing to 0).
Kernel make_kernel(const ParamValues& params);

// The generators, at 2 radius + 1 texels a side, before normalization (exposed for the tests).
Kernel generated_kernel(const std::string& shape, int radius, double sigma, int rays);

}  // namespace filterlab::filters::convolve
