#include "common/flip.h"

#include "io/image_files.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace filterlab::common {
namespace {

constexpr double kPi = 3.14159265358979323846;

// Linear RGB <-> XYZ (D65), and the reference white: the XYZ of linear RGB (1, 1, 1).
constexpr double kRgbToXyz[3][3] = {
    {10135552.0 / 24577794.0, 8788810.0 / 24577794.0, 4435075.0 / 24577794.0},
    {2613072.0 / 12288897.0, 8788810.0 / 12288897.0, 887015.0 / 12288897.0},
    {1425312.0 / 73733382.0, 8788810.0 / 73733382.0, 70074185.0 / 73733382.0}};
constexpr double kXyzToRgb[3][3] = {{3.241003275, -1.537398934, -0.498615861},
                                    {-0.969224334, 1.875930071, 0.041554224},
                                    {0.055639423, -0.204011202, 1.057148933}};
constexpr std::array<double, 3> kWhite = {23359437.0 / 24577794.0, 1.0, 80288307.0 / 73733382.0};

using Vec3 = std::array<double, 3>;

Vec3 times(const double (&m)[3][3], const Vec3& v) {
  return {m[0][0] * v[0] + m[0][1] * v[1] + m[0][2] * v[2], m[1][0] * v[0] + m[1][1] * v[1] + m[1][2] * v[2],
          m[2][0] * v[0] + m[2][1] * v[1] + m[2][2] * v[2]};
}

Vec3 xyz_to_ycxcz(const Vec3& xyz) {
  const double x = xyz[0] / kWhite[0], y = xyz[1] / kWhite[1], z = xyz[2] / kWhite[2];
  return {116 * y - 16, 500 * (x - y), 200 * (y - z)};
}

Vec3 ycxcz_to_xyz(const Vec3& c) {
  const double y = (c[0] + 16) / 116, x = y + c[1] / 500, z = y - c[2] / 200;
  return {x * kWhite[0], y * kWhite[1], z * kWhite[2]};
}

// L*a*b* with the Hunt adjustment (a and b scaled by L / 100).
Vec3 hunt_lab(const Vec3& xyz) {
  constexpr double delta = 6.0 / 29.0;
  auto f = [&](double t) {
    return t > delta * delta * delta ? std::cbrt(t) : t / (3 * delta * delta) + 4.0 / 29.0;
  };
  const double fx = f(xyz[0] / kWhite[0]), fy = f(xyz[1] / kWhite[1]), fz = f(xyz[2] / kWhite[2]);
  const double l = 116 * fy - 16;
  return {l, 0.01 * l * 500 * (fx - fy), 0.01 * l * 200 * (fy - fz)};
}

double hyab(const Vec3& a, const Vec3& b) {
  return std::abs(a[0] - b[0]) + std::hypot(a[1] - b[1], a[2] - b[2]);
}

struct Plane {
  uint32_t width = 0, height = 0;
  std::vector<double> v;
  double& at(uint32_t x, uint32_t y) { return v[size_t(y) * width + x]; }
  double at(uint32_t x, uint32_t y) const { return v[size_t(y) * width + x]; }
};

// `kernel` (odd length, centred) along rows then along columns, the edge texels replicated:
// (kernel_x outer kernel_y) correlated with the plane.
Plane filter(const Plane& in, const std::vector<double>& kernel_x, const std::vector<double>& kernel_y) {
  const int rx = int(kernel_x.size() / 2), ry = int(kernel_y.size() / 2);
  const int w = int(in.width), h = int(in.height);
  Plane rows{in.width, in.height, std::vector<double>(in.v.size())};
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      double sum = 0;
      for (int i = -rx; i <= rx; ++i)
        sum += kernel_x[size_t(i + rx)] * in.at(uint32_t(std::clamp(x + i, 0, w - 1)), uint32_t(y));
      rows.at(uint32_t(x), uint32_t(y)) = sum;
    }
  Plane out{in.width, in.height, std::vector<double>(in.v.size())};
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      double sum = 0;
      for (int i = -ry; i <= ry; ++i)
        sum += kernel_y[size_t(i + ry)] * rows.at(uint32_t(x), uint32_t(std::clamp(y + i, 0, h - 1)));
      out.at(uint32_t(x), uint32_t(y)) = sum;
    }
  return out;
}

// The contrast sensitivity filter of channel c (Y, Cx, Cz): its terms of FlipFilters::csf.
Plane csf_filter(const Plane& in, size_t channel, const FlipFilters& f) {
  Plane out{in.width, in.height, std::vector<double>(in.v.size(), 0.0)};
  for (size_t k : channel < 2 ? std::vector<size_t>{channel} : std::vector<size_t>{2, 3}) {
    const Plane term = filter(in, f.csf[k], f.csf[k]);
    for (size_t p = 0; p < out.v.size(); ++p) out.v[p] += f.csf_scale[k] * term.v[p];
  }
  return out;
}

// Edge and point responses of the normalized achromatic channel: |(dG x G, G x dG)| and the same of
// the second derivative, G a Gaussian of standard deviation 0.5 * 0.082 degrees.
struct Features {
  Plane edges, points;
};
Features features(const Plane& achromatic, const FlipFilters& f) {
  const std::vector<double>&g = f.g, &dg = f.dg, &ddg = f.ddg;
  Features out;
  const Plane dx = filter(achromatic, dg, g), dy = filter(achromatic, g, dg);
  const Plane ddx = filter(achromatic, ddg, g), ddy = filter(achromatic, g, ddg);
  out.edges = dx, out.points = ddx;
  for (size_t p = 0; p < dx.v.size(); ++p) {
    out.edges.v[p] = std::hypot(dx.v[p], dy.v[p]);
    out.points.v[p] = std::hypot(ddx.v[p], ddy.v[p]);
  }
  return out;
}

// What LDR-FLIP needs of one image: the filtered colour as Hunt-adjusted L*a*b*, and the features.
struct Prepared {
  std::vector<Vec3> lab;
  Features features;
};
// Linear RGB in double, row-major.
struct RgbImage {
  uint32_t width = 0, height = 0;
  std::vector<Vec3> rgb;
};
RgbImage rgb_of(const io::ImageF& image, FlipInput input = FlipInput::Linear) {
  if (image.channels < 3) throw std::invalid_argument("FLIP compares RGB images");
  RgbImage out{image.width, image.height, std::vector<Vec3>(size_t(image.width) * image.height)};
  for (size_t p = 0; p < out.rgb.size(); ++p)
    for (size_t c = 0; c < 3; ++c) {
      const double v = image.pixels[p * image.channels + c];
      out.rgb[p][c] = input == FlipInput::Srgb ? io::srgb_to_linear(v) : v;
    }
  return out;
}

Prepared prepare(const RgbImage& image, const FlipFilters& filters) {
  const size_t n = image.rgb.size();
  std::array<Plane, 3> ycxcz;
  for (Plane& p : ycxcz) p = {image.width, image.height, std::vector<double>(n)};
  Plane achromatic{image.width, image.height, std::vector<double>(n)};
  for (size_t p = 0; p < n; ++p) {
    Vec3 rgb;
    for (size_t c = 0; c < 3; ++c) rgb[c] = std::clamp(image.rgb[p][c], 0.0, 1.0);
    const Vec3 y = xyz_to_ycxcz(times(kRgbToXyz, rgb));
    for (size_t c = 0; c < 3; ++c) ycxcz[c].v[p] = y[c];
    achromatic.v[p] = (y[0] + 16) / 116;
  }
  Prepared out;
  std::array<Plane, 3> filtered;
  for (size_t c = 0; c < 3; ++c) filtered[c] = csf_filter(ycxcz[c], c, filters);
  out.lab.resize(n);
  for (size_t p = 0; p < n; ++p) {
    Vec3 rgb = times(kXyzToRgb, ycxcz_to_xyz({filtered[0].v[p], filtered[1].v[p], filtered[2].v[p]}));
    for (double& v : rgb) v = std::clamp(v, 0.0, 1.0);
    out.lab[p] = hunt_lab(times(kRgbToXyz, rgb));
  }
  out.features = features(achromatic, filters);
  return out;
}

std::vector<double> ldr_flip(const RgbImage& reference, const RgbImage& test, double ppd) {
  const FlipFilters filters = flip_filters(ppd);
  const Prepared r = prepare(reference, filters), t = prepare(test, filters);
  constexpr double qc = 0.7, pc = 0.4, pt = 0.95, qf = 0.5;
  const double cmax = flip_cmax();
  std::vector<double> map(r.lab.size());
  for (size_t p = 0; p < map.size(); ++p) {
    const double d = std::pow(hyab(r.lab[p], t.lab[p]), qc);
    const double colour =
        d < pc * cmax ? pt / (pc * cmax) * d : pt + (d - pc * cmax) / (cmax - pc * cmax) * (1 - pt);
    const double edge = std::abs(r.features.edges.v[p] - t.features.edges.v[p]);
    const double point = std::abs(r.features.points.v[p] - t.features.points.v[p]);
    const double feature = std::pow(std::max(edge, point) / std::sqrt(2.0), qf);
    map[p] = std::pow(colour, 1 - feature);
  }
  return map;
}

void check_sizes(const io::ImageF& a, const io::ImageF& b) {
  if (a.width != b.width || a.height != b.height)
    throw std::invalid_argument("FLIP: the images' sizes differ");
}

// ACES as FLIP's tools apply it (Narkowicz's fit, 0.6 of the exposure folded into its coefficients).
constexpr double kAces[6] = {0.6 * 0.6 * 2.51, 0.6 * 0.03, 0, 0.6 * 0.6 * 2.43, 0.6 * 0.59, 0.14};
double aces(double x) {
  return (kAces[0] * x * x + kAces[1] * x + kAces[2]) / (kAces[3] * x * x + kAces[4] * x + kAces[5]);
}

}  // namespace

FlipFilters flip_filters(double ppd) {
  // The CSF: a1 sqrt(pi / b1) exp(-pi^2 d^2 / b1) + a2 (the same with b2), d in degrees, over one
  // (2r + 1)^2 window for all three channels (r from the largest b), normalized to sum 1. Each term
  // is separable: sum_k w_k h_k(x) h_k(y), divided by sum_k w_k (sum h_k)^2.
  struct Term {
    size_t channel;
    double a, b;
  };
  constexpr Term kTerms[4] = {{0, 1, 0.0047}, {1, 1, 0.0053}, {2, 34.1, 0.04}, {2, 13.5, 0.025}};
  constexpr double kLargestB = 0.04;
  FlipFilters f;
  f.csf_radius = int(std::ceil(3 * std::sqrt(kLargestB / (2 * kPi * kPi)) * ppd));
  std::array<double, 3> total{};
  std::array<double, 4> weight{};
  for (size_t k = 0; k < 4; ++k) {
    const auto [channel, a, b] = kTerms[k];
    for (int i = -f.csf_radius; i <= f.csf_radius; ++i) {
      const double d = i / ppd;
      f.csf[k].push_back(std::exp(-kPi * kPi * d * d / b));
    }
    const double s = std::accumulate(f.csf[k].begin(), f.csf[k].end(), 0.0);
    weight[k] = a * std::sqrt(kPi / b);
    total[channel] += weight[k] * s * s;
  }
  for (size_t k = 0; k < 4; ++k) f.csf_scale[k] = weight[k] / total[kTerms[k].channel];
  // The features: G of standard deviation 0.5 * 0.082 degrees, normalized to sum 1, and its first
  // and second derivatives, their positive weights scaled to sum 1 and their negative ones to -1.
  const double sigma = 0.5 * 0.082 * ppd;
  f.feature_radius = int(std::ceil(3 * sigma));
  for (int i = -f.feature_radius; i <= f.feature_radius; ++i) {
    const double e = std::exp(-double(i) * i / (2 * sigma * sigma));
    f.g.push_back(e);
    f.dg.push_back(-i * e);
    f.ddg.push_back((double(i) * i / (sigma * sigma) - 1) * e);
  }
  const double gs = std::accumulate(f.g.begin(), f.g.end(), 0.0);
  for (double& v : f.g) v /= gs;
  for (std::vector<double>* k : {&f.dg, &f.ddg}) {
    double positive = 0, negative = 0;
    for (double v : *k) (v > 0 ? positive : negative) += v;
    for (double& v : *k) v = v > 0 ? v / positive : v < 0 ? v / -negative : 0.0;
  }
  return f;
}

double flip_cmax() {
  return std::pow(hyab(hunt_lab(times(kRgbToXyz, {0, 1, 0})), hunt_lab(times(kRgbToXyz, {0, 0, 1}))), 0.7);
}

double pixels_per_degree(double width_m, double pixels, double distance_m) {
  return distance_m * (pixels / width_m) * (kPi / 180);
}

double default_pixels_per_degree() {
  return pixels_per_degree(0.7, 3840, 0.7);
}

static void check_ppd(double ppd) {
  if (!(ppd > 0 && ppd <= kMaxPixelsPerDegree))
    throw std::invalid_argument("FLIP: pixels per degree must be above 0 and at most 1000");
}

std::vector<double> ldr_flip(const io::ImageF& reference, const io::ImageF& test, double ppd,
                             FlipInput input) {
  check_sizes(reference, test);
  check_ppd(ppd);
  return ldr_flip(rgb_of(reference, input), rgb_of(test, input), ppd);
}

double flip_aces_white() {
  // The larger root of (k0 - t k3) x^2 + (k1 - t k4) x + (k2 - t k5), t = 0.85.
  constexpr double t = 0.85;
  const double qa = kAces[0] - t * kAces[3], qb = kAces[1] - t * kAces[4], qc = kAces[2] - t * kAces[5];
  const double root = std::sqrt(qb * qb - 4 * qa * qc);
  return std::max((-qb + root) / (2 * qa), (-qb - root) / (2 * qa));
}

FlipExposures flip_exposures(const io::ImageF& reference) {
  if (reference.channels < 3) throw std::invalid_argument("FLIP compares RGB images");
  const size_t n = size_t(reference.width) * reference.height;
  if (n == 0) throw std::invalid_argument("HDR-FLIP: an empty image");
  std::vector<double> luminance(n);
  for (size_t p = 0; p < n; ++p) {
    const float* c = &reference.pixels[p * reference.channels];
    luminance[p] = 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
  }
  const double largest = *std::max_element(luminance.begin(), luminance.end());
  std::nth_element(luminance.begin(), luminance.begin() + ptrdiff_t(n / 2), luminance.end());
  const double median = luminance[n / 2];  // the upper middle for an even count, as the tool takes it
  if (!(largest > 0) || !(median > 0))
    throw std::invalid_argument(
        "HDR-FLIP: the reference's median luminance is not above 0, so it has no exposure "
        "range (give one with --flip-exposure START:STOP:COUNT)");
  const double x = flip_aces_white();
  FlipExposures e;
  e.start = std::log2(x / largest);
  e.stop = std::log2(x / median);
  e.count = uint32_t(std::clamp(std::ceil(e.stop - e.start), 2.0, 64.0));
  return e;
}

std::vector<double> hdr_flip(const io::ImageF& reference, const io::ImageF& test, double ppd,
                             const FlipExposures& exposures) {
  check_sizes(reference, test);
  check_ppd(ppd);
  if (exposures.count < 1 || exposures.count > 64) throw std::invalid_argument("HDR-FLIP: 1 to 64 exposures");
  const RgbImage r = rgb_of(reference), t = rgb_of(test);
  std::vector<double> worst(r.rgb.size(), 0.0);
  for (uint32_t i = 0; i < exposures.count; ++i) {
    const double scale = std::exp2(exposures.at(i));
    auto exposed = [&](RgbImage image) {
      for (Vec3& rgb : image.rgb)
        for (double& v : rgb) v = std::clamp(aces(scale * v), 0.0, 1.0);
      return image;
    };
    const std::vector<double> map = ldr_flip(exposed(r), exposed(t), ppd);
    for (size_t p = 0; p < map.size(); ++p) worst[p] = std::max(worst[p], map[p]);
  }
  return worst;
}

io::ImageU8 flip_magma(const std::vector<double>& map, uint32_t width, uint32_t height) {
#define MAGMA(r, g, b) \
  { r, g, b }
  static constexpr uint8_t kMagma[256][3] = {
#include "magma.inc"
  };
#undef MAGMA
  if (map.size() != size_t(width) * height)
    throw std::invalid_argument("flip_magma: the map is not width x height");
  io::ImageU8 out{width, height, std::vector<uint8_t>(map.size() * 4)};
  for (size_t p = 0; p < map.size(); ++p) {
    const size_t i = size_t(std::clamp(std::lround(map[p] * 255), 0L, 255L));
    for (size_t c = 0; c < 3; ++c) out.rgba[p * 4 + c] = kMagma[i][c];
    out.rgba[p * 4 + 3] = 255;
  }
  return out;
}

FlipPooled pool_flip(const std::vector<double>& map) {
  FlipPooled out;
  if (map.empty()) return out;
  std::vector<double> sorted = map;
  std::sort(sorted.begin(), sorted.end());
  const double total = std::accumulate(sorted.begin(), sorted.end(), 0.0);
  out.mean = total / double(sorted.size());
  out.max = sorted.back();
  double running = 0;
  for (double v : sorted) {
    running += v;
    if (running > 0.5 * total) {
      out.weighted_median = v;
      break;
    }
  }
  return out;
}

}  // namespace filterlab::common
