#include "filters/variance/variance.h"

#include "filters/auto_method.h"
#include "filters/precision.h"
#include "filters/variance/running.h"
#include "filters/variance/stream.h"
#include "filters/variance/variance_config.h"
#include "filters/window_methods.h"

#include <algorithm>
#include <cmath>

namespace filterlab::filters::variance {
namespace {

constexpr int kMaxRadius = 64;

bool moments(const ParamValues& v) {
  const std::string& out = v.choice("output");
  return out == "mean" || out == "stddev";
}

void constants(const ParamValues& v, vk::Specialization& spec) {
  spec.set(VARIANCE_STATS_ID, moments(v) ? VARIANCE_MOMENTS : VARIANCE_RANGE)
      .set(VARIANCE_SHAPE_ID, v.choice("shape") == "plus" ? VARIANCE_PLUS : VARIANCE_SQUARE)
      .set(VARIANCE_SPACE_ID, v.choice("space") == "ycocg" ? VARIANCE_YCOCG : VARIANCE_RGB);
}

std::array<double, 4> to_space(const std::array<double, 4>& c, bool ycocg) {
  if (!ycocg) return c;
  return {0.25 * c[0] + 0.5 * c[1] + 0.25 * c[2], 0.5 * c[0] - 0.5 * c[2],
          -0.25 * c[0] + 0.5 * c[1] - 0.25 * c[2], c[3]};
}

// The population statistics of the window, in double, directly from their definitions.
common::ImageD reference(const io::ImageF& input, const ParamValues& v) {
  const std::string output = v.choice("output");
  const bool plus = v.choice("shape") == "plus", ycocg = v.choice("space") == "ycocg";
  return window_reference(input, v.integer("radius"),
                          [&](const auto& values, int r, std::array<double, 4>& out) {
                            const int side = 2 * r + 1;
                            std::vector<std::array<double, 4>> window;
                            for (int j = -r; j <= r; ++j)
                              for (int i = -r; i <= r; ++i)
                                if (!plus || i == 0 || j == 0)
                                  window.push_back(to_space(values[size_t(j + r) * side + i + r], ycocg));
                            for (int c = 0; c < 4; ++c) {
                              double sum = 0, lo = window[0][c], hi = window[0][c];
                              for (const auto& x : window) {
                                sum += x[c];
                                lo = std::min(lo, x[c]);
                                hi = std::max(hi, x[c]);
                              }
                              const double mean = sum / double(window.size());
                              double sq = 0;
                              for (const auto& x : window) sq += (x[c] - mean) * (x[c] - mean);
                              out[c] = output == "mean"     ? mean
                                       : output == "stddev" ? std::sqrt(sq / double(window.size()))
                                       : output == "min"    ? lo
                                                            : hi;
                            }
                          });
}

Family make_family() {
  Family f;
  f.name = "variance";
  f.description =
      "per channel, the window's mean and standard deviation (the paper's (7), (8)) or its min and max, "
      "square or plus-shaped, RGB or YCoCg: TAA's neighbourhood statistics; writes <name>.mean and "
      "<name>.stddev (or .min and .max)";
  f.params = {window_radius_param("radius", kMaxRadius, 1),
              choice_param("output", {"mean", "stddev", "min", "max"}, "mean",
                           "the image that continues the chain: mean and stddev are written together, "
                           "min and max together"),
              choice_param("shape", {"square", "plus"}, "square",
                           "the window: (2r+1)^2, or its middle row and column"),
              choice_param("space", {"rgb", "ycocg"}, "rgb", "the colour space the statistics are taken in"),
              precision_param()};
  WindowFamily w;
  w.shaders = "filters/variance/variance";
  w.acc_vec4s = 2;
  w.constants = constants;
  w.outputs = [](const ParamValues& v) {
    return moments(v) ? std::vector<std::string>{".mean", ".stddev"}
                      : std::vector<std::string>{".min", ".max"};
  };
  w.continuing = [](const ParamValues& v) -> size_t {
    const std::string& out = v.choice("output");
    return out == "stddev" || out == "max" ? 1 : 0;
  };
  w.not_separable = [](const ParamValues& v) -> std::string {
    return v.choice("shape") == "plus" ? "a plus-shaped window is not a product of a row and a column" : "";
  };
  w.max_radius = kMaxRadius;
  f.methods = window_methods(w);
  f.methods.push_back(window_method(w, WindowMethod::Separable));
  f.methods.push_back(stream_method());
  f.methods.push_back(running_method());
  f.methods.push_back(auto_method(family));
  f.tools.auto_table = auto_default_table();
  f.default_method = "auto";  // the fastest exact method here (issue #37: a default that is fast)
  f.reference = reference;
  f.test_points = {"radius=1",
                   "radius=2",
                   "radius=3",
                   "radius=5",
                   "radius=8",
                   "radius=1:output=stddev",
                   "radius=3:output=stddev",
                   "radius=8:output=stddev",
                   "radius=2:output=min",
                   "radius=5:output=max",
                   "radius=2:output=stddev:shape=plus",
                   "radius=3:output=max:shape=plus:space=ycocg",
                   "radius=2:output=stddev:space=ycocg"};
  // Mean, min and max: fp32 rounding of values in [0, 1).
  f.tolerance_fp32 = 1e-5;
  f.tolerance_fp16 = 2 * std::ldexp(1.0, -11);  // the outputs rounded to half: 2 half-ulps at 1
  // The standard deviation: its sums are of d = x - anchor, |d| <= 1 for values in [0, 1)
  // (variance_window.glsl), so the variance E[d^2] - E[d]^2 carries an error e of at most about
  // 2 n eps (n terms summed in fp32, eps = 2^-24). The square root turns e into e / (s + s') for
  // standard deviations s and s' (computed): small where the window varies, but up to sqrt(e)
  // where its spread is near 0 (a flat area with one outlier, often in the HDR scene). So the bound
  // held is sqrt(2 n eps): 1.0e-3 for a 3x3 window, 5.9e-3 at r = 8. It catches a wrong window or
  // sum (errors of 1e-2 and more); the cancellation the shift avoids is tested apart, on 1000 plus
  // noise, relative to the spread (tests/gpu/variance_test.cpp).
  f.tolerance_for = [](const ParamValues& v, bool fp16) {
    const std::string& out = v.choice("output");
    if (out != "stddev") return fp16 ? 2 * std::ldexp(1.0, -11) : 1e-5;
    const int r = v.integer("radius");
    const double n = v.choice("shape") == "plus" ? 4 * r + 1 : (2 * r + 1) * (2 * r + 1);
    const double bound = std::sqrt(2 * n * std::ldexp(1.0, -24));
    return fp16 ? std::max(bound, 2 * std::ldexp(1.0, -11)) : bound;
  };
  f.tools.quality.baseline = "frag.full2d";
  f.tools.quality.columns = {{"VC", "output=mean"}, {"VC stddev", "output=stddev"}};
  return f;
}

}  // namespace

const Family& family() {
  static const Family f = make_family();
  return f;
}

}  // namespace filterlab::filters::variance
