#include "filters/tent/tent.h"

#include "filters/precision.h"
#include "filters/tent/tent_config.h"
#include "filters/window_methods.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <sstream>

namespace filterlab::filters::tent {
namespace {

constexpr int kMaxRadius = 64;

struct Kernel {
  bool rank2;
  int radius;
  double k, b;
  double separable(int i) const { return std::max(k - b * std::abs(i), 0.0); }
  double rank2_at(int i, int j) const { return k - b * (std::abs(i) + std::abs(j)); }
  double weight(int i, int j) const { return rank2 ? rank2_at(i, j) : separable(i) * separable(j); }
  double sum() const {
    double s = 0;
    for (int j = -radius; j <= radius; ++j)
      for (int i = -radius; i <= radius; ++i) s += weight(i, j);
    return s;
  }
  double sum_1d() const {
    double s = 0;
    for (int i = -radius; i <= radius; ++i) s += separable(i);
    return s;
  }
};

Kernel kernel(const ParamValues& v) {
  return {v.choice("kernel") == "rank2", v.integer("radius"), v.number("k"), v.number("b")};
}

// No weight may be negative and the sum must be positive: the filter is then a weighted mean.
void check(const ParamValues& v) {
  const Kernel kn = kernel(v);
  std::ostringstream text;
  if (kn.rank2 && std::min(kn.rank2_at(0, 0), kn.rank2_at(kn.radius, kn.radius)) < 0)
    text << "tent: k " << kn.k << " and b " << kn.b << " make a weight negative at radius " << kn.radius
         << " (the rank-2 tent needs k >= 0 and k - 2br >= 0)";
  else if (!(kn.sum() > 0))
    text << "tent: k " << kn.k << " and b " << kn.b << " give the kernel a sum of zero";
  if (!text.str().empty()) throw ChainError(text.str());
}

}  // namespace

TentWeights tent_weights(const ParamValues& v) {
  const Kernel kn = kernel(v);
  TentWeights w;
  w.rank2 = kn.rank2;
  w.a = kn.rank2 ? kn.k / (2 * kn.sum()) : kn.k / kn.sum_1d();
  w.b = kn.rank2 ? kn.b / kn.sum() : kn.b / kn.sum_1d();
  w.support = kn.radius;
  if (!kn.rank2)
    while (w.support > 0 && !(kn.separable(w.support) > 0)) --w.support;
  return w;
}

namespace {

// See tent_window.glsl: a(i) = A - B|i| with the kernel's normalization folded in.
void constants(const ParamValues& v, vk::Specialization& spec) {
  const TentWeights w = tent_weights(v);
  spec.set(TENT_RANK2_ID, w.rank2).set(TENT_A_ID, float(w.a)).set(TENT_B_ID, float(w.b));
}

common::ImageD reference(const io::ImageF& input, const ParamValues& v) {
  const Kernel kn = kernel(v);
  const double sum = kn.sum();
  return window_reference(input, kn.radius, [&](const auto& values, int r, std::array<double, 4>& out) {
    out = {0, 0, 0, 0};
    const int side = 2 * r + 1;
    for (int j = -r; j <= r; ++j)
      for (int i = -r; i <= r; ++i) {
        const double w = kn.weight(i, j) / sum;
        for (int c = 0; c < 4; ++c) out[c] += w * values[size_t(j + r) * side + i + r][c];
      }
  });
}

Family make_family() {
  Family f;
  f.name = "tent";
  f.description =
      "the paper's tent: rank 2, k - b(|i|+|j|) (6), or separable, max(k-b|i|,0) max(k-b|j|,0) (5); "
      "normalized, clamp-to-edge border";
  // The normalized kernel depends on k / b alone, so b stays in [0, 1] and k scales: any tent is
  // reachable, and every value of each range gives a valid kernel with the other's default.
  Param k = number_param("k", 1e-3, 1e6, "", "the tent's height (kernels (5) and (6))");
  k.derived = [](const ParamValues& v) { return 2.0 * v.integer("radius") + 1; };
  k.derived_text = "2r+1";
  Param b = number_param("b", 0, 1, "", "the tent's slope per pixel; with k, only k/b matters");
  b.derived = [](const ParamValues& v) { return v.number("k") / (2.0 * v.integer("radius") + 1); };
  b.derived_text = "k/(2r+1): 1 with the default k, every weight positive";
  f.params = {
      window_radius_param("radius", kMaxRadius, 2), k, b,
      choice_param("kernel", {"rank2", "separable"}, "rank2",
                   "rank2: k - b(|i|+|j|), the paper's (6); separable: max(k-b|i|,0) max(k-b|j|,0), its (5)"),
      precision_param()};
  WindowFamily w;
  w.shaders = "filters/tent/tent";
  w.terms = 2;
  w.constants = constants;
  w.max_radius = kMaxRadius;
  WindowFamily::Running running;
  running.description =
      "box and ramp sums sliding down strips 128 wide and prefix sums along each row: the same work at every "
      "radius";
  running.slide_fetches = 4;  // the box and the two half-windows move by a row
  running.prefixes = 3;       // of the column values, of their boxes, of the column tents
  running.prefix_reads = 10;  // up to ten a window
  // Its sums take the ramp A - B|i| as it is: a separable tent's zero weights are outside it.
  running.radius = [](const ParamValues& v) { return tent_weights(v).support; };
  w.running = running;
  f.methods = window_methods(w);
  f.methods.push_back(window_method(w, WindowMethod::Running));
  f.check = check;
  f.reference = reference;
  f.test_points = {"radius=1",           "radius=2",        "radius=3",
                   "radius=5",           "radius=8",        "radius=3:kernel=separable",
                   "radius=2:k=4:b=0.5", "radius=4:k=1:b=0"};
  f.tolerance_fp32 = 1e-5;                      // fp32 rounding of a weighted mean of values in [0, 1)
  f.tolerance_fp16 = 2 * std::ldexp(1.0, -11);  // and the output rounded to half: 2 half-ulps at 1
  f.tools.quality.baseline = "frag.full2d";
  f.tools.quality.columns = {{"Tent", ""}};
  // The paper calls (6) "almost equal" to (5): measured, at the default k and b.
  f.tools.quality.pairs = {
      {"separable tent (5) against rank-2 tent (6)", "kernel=separable", "kernel=rank2"}};
  return f;
}

}  // namespace

const Family& family() {
  static const Family f = make_family();
  return f;
}

}  // namespace filterlab::filters::tent
