#include "filters/bilateral/bilateral.h"

#include "common/kernel.h"
#include "filters/bilateral/bilateral_config.h"
#include "filters/precision.h"
#include "filters/window_methods.h"

#include <bit>
#include <cmath>
#include <numbers>

namespace filterlab::filters::bilateral {
namespace {

constexpr int kMaxRadius = 64;

// log2(e) / (2 sigma^2): a weight is exp2(-(i^2 + j^2) spatial - |d|^2 range).
uint32_t exp2_scale(double sigma) {
  return std::bit_cast<uint32_t>(float(std::numbers::log2e / (2 * sigma * sigma)));
}

void constants(const ParamValues& v, vk::Specialization& spec) {
  spec.set(BILATERAL_SPATIAL_ID, exp2_scale(v.number("sigma_d")))
      .set(BILATERAL_RANGE_ID, exp2_scale(v.number("sigma_r")));
}

common::ImageD reference(const io::ImageF& input, const ParamValues& v) {
  const double sd = v.number("sigma_d"), sr = v.number("sigma_r");
  return window_reference(
      input, v.integer("radius"), [&](const auto& values, int r, std::array<double, 4>& out) {
        const int side = 2 * r + 1;
        const std::array<double, 4>& centre = values[size_t(r) * side + r];
        double total = 0;
        out = {0, 0, 0, 0};
        for (int j = -r; j <= r; ++j)
          for (int i = -r; i <= r; ++i) {
            const std::array<double, 4>& x = values[size_t(j + r) * side + i + r];
            double d2 = 0;
            for (int c = 0; c < 3; ++c) d2 += (x[c] - centre[c]) * (x[c] - centre[c]);
            const double w = std::exp(-(i * i + j * j) / (2 * sd * sd) - d2 / (2 * sr * sr));
            total += w;
            for (int c = 0; c < 4; ++c) out[c] += w * x[c];
          }
        for (double& c : out) c /= total;
      });
}

Family make_family() {
  Family f;
  f.name = "bilateral";
  f.description =
      "the paper's bilateral filter (4): a spatial Gaussian times a range Gaussian of the RGB distance to "
      "the centre, alpha filtered alike, normalized; clamp-to-edge border";
  Param sd = number_param("sigma_d", 1e-3, 1e4, "", "the spatial Gaussian's standard deviation");
  sd.unit = "px";
  sd.derived = [](const ParamValues& v) { return common::ideal_sigma(v.integer("radius")); };
  sd.derived_text = "the gaussian family's ideal sigma for the radius: its outermost normalized tap weighs 1/255";
  Param sr =
      number_param("sigma_r", 1e-3, 1e4, "0.1", "the range Gaussian's standard deviation, in image units");
  sd.log_scale = sr.log_scale = true;
  f.params = {window_radius_param("radius", kMaxRadius, 2), sd, sr, precision_param()};
  WindowFamily w;
  w.shaders = "filters/bilateral/bilateral";
  w.acc_vec4s = 2;
  w.constants = constants;
  w.max_radius = kMaxRadius;
  f.methods = window_methods(w);
  f.reference = reference;
  f.test_points = {"radius=1", "radius=2", "radius=3",
                   "radius=5", "radius=8", "radius=3:sigma_r=0.02:sigma_d=5"};
  // fp32 rounding of the weights' arguments and of a weighted mean of values in [0, 1).
  f.tolerance_fp32 = 1e-5;
  f.tolerance_fp16 = 2 * std::ldexp(1.0, -11);  // the output rounded to half: 2 half-ulps at 1
  f.tools.quality.baseline = "frag.full2d";
  f.tools.quality.columns = {{"Bilateral", ""}};
  return f;
}

}  // namespace

const Family& family() {
  static const Family f = make_family();
  return f;
}

}  // namespace filterlab::filters::bilateral
