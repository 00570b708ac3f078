#pragma once
// What each bigblur method computes from sigma and its own parameters, in one place: the GPU passes
// (bigblur.cpp, pyramid.cpp), the CPU models the tests hold them to (model.h) and the docs read it
// here.
#include "filters/bigblur/bigblur_config.h"

#include <array>
#include <cstdint>
#include <vector>

namespace filterlab::filters::bigblur {

// The exact method's kernel: exp(-i^2 / (2 sigma^2)) for i = 0..r, r = ceil(4 sigma), normalized so
// that the 2r + 1 taps sum to 1 (in double).
int exact_radius(double sigma);
std::vector<double> exact_weights(double sigma);  // w[|i|], i = -r..r

// Deriche's fourth-order fit of the Gaussian (1993; the coefficients as tabled by Farneback and
// Westin): h(x) = (a0 cos(w0 x) + a1 sin(w0 x)) e^(-b0 x) + (c0 cos(w1 x) + c1 sin(w1 x)) e^(-b1 x),
// x = |n| / sigma, as two second-order sections run both ways (recursive.comp).
shader::RecursiveCoefficients recursive_coefficients(double sigma);

// comp.mip_poisson: the disk and where its samples read.
struct PoissonDesign {
  double weight_sigma;  // the Gaussian the disk's weights follow: sigma less the prefilter's spread
  double radius;        // of the disk, pixels: 3 weight_sigma
  double lod;           // the level whose texels cover one sample's share of the disk, >= 0
  int fine, coarse;     // the levels read: floor(lod) and the next, or the nearest level twice
  int levels;           // pyramid levels built: 1 .. coarse
  std::vector<std::array<float, 4>> disk;  // x, y (pixels), weight (summing to 1), 0
};
// trilinear: the lod blends two levels; otherwise it is rounded to the nearest level.
PoissonDesign poisson_design(double sigma, int samples, bool trilinear = true);

// Mitchell's best candidate in the unit disk (deterministic: std::mt19937 from a fixed seed, mapped
// by hand): each new point the farthest from the others among 32 k candidates. Its minimum distance
// is at least poisson_min_distance(n) (checked by the tests for every n the family takes).
std::vector<std::array<double, 2>> poisson_disk(int n);
double poisson_min_distance(int n);

// The pyramid chains (dual filtering, the 13-tap chain): the number of levels down and back up whose
// spread is closest to sigma, from each chain's spread in closed form (chain_sigma; docs/families/
// bigblur.md derives it).
enum class Chain { Dual, Cod13 };
double chain_sigma(Chain chain, int levels);
int chain_levels(Chain chain, double sigma);

// Interleaved gradient noise at the integer pixel (x, y) in frame f (shaders/filters/common/
// noise.glsl): what the test holds the shader to.
double interleaved_gradient_noise(int x, int y, uint32_t frame);

}  // namespace filterlab::filters::bigblur
