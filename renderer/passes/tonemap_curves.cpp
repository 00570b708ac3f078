#include "passes/tonemap_curves.h"

#include "passes/passes_config.h"

#include <algorithm>
#include <cmath>

namespace filterlab::passes {
namespace {

constexpr const char* kNames[] = {"aces", "reinhard", "hable", "agx", "neutral", "none"};
static_assert(std::size(kNames) == kTonemapperCount && kTonemapperCount == TONEMAP_COUNT);
static_assert(uint32_t(Tonemapper::Aces) == TONEMAP_ACES &&
              uint32_t(Tonemapper::Reinhard) == TONEMAP_REINHARD &&
              uint32_t(Tonemapper::Hable) == TONEMAP_HABLE && uint32_t(Tonemapper::Agx) == TONEMAP_AGX &&
              uint32_t(Tonemapper::Neutral) == TONEMAP_NEUTRAL && uint32_t(Tonemapper::None) == TONEMAP_NONE);

double luminance(glm::dvec3 c) {
  return 0.2126 * c.r + 0.7152 * c.g + 0.0722 * c.b;
}

glm::dvec3 clamp01(glm::dvec3 c) {
  return glm::clamp(c, glm::dvec3(0.0), glm::dvec3(1.0));
}

double hable_partial(double x) {
  const double a = 0.15, b = 0.50, c = 0.10, d = 0.20, e = 0.02, f = 0.30;
  return (x * (a * x + c * b) + d * e) / (x * (a * x + b) + d * f) - e / f;
}

// AgX: into its working space (a matrix), log2 encoding between -12.47 and +4.03 EV around 0.18,
// the sigmoid as a 6th-degree polynomial, back out, then the 2.2 display power undone.
glm::dvec3 agx(glm::dvec3 c) {
  auto mul = [](const double m[3][3], glm::dvec3 v) {  // m[column][row], as GLSL's mat3
    return glm::dvec3(m[0][0] * v.x + m[1][0] * v.y + m[2][0] * v.z,
                      m[0][1] * v.x + m[1][1] * v.y + m[2][1] * v.z,
                      m[0][2] * v.x + m[1][2] * v.y + m[2][2] * v.z);
  };
  static const double in[3][3] = {{0.842479062253094, 0.0423282422610123, 0.0423756549057051},
                                  {0.0784335999999992, 0.878468636469772, 0.0784336},
                                  {0.0792237451477643, 0.0791661274605434, 0.879142973793104}};
  static const double out[3][3] = {{1.19687900512017, -0.0528968517574562, -0.0529716355144438},
                                   {-0.0980208811401368, 1.15190312990417, -0.0980434501171241},
                                   {-0.0990297440797205, -0.0989611768448433, 1.15107367264116}};
  const double min_ev = -12.47393, max_ev = 4.026069;
  glm::dvec3 v = mul(in, c);
  for (int i = 0; i < 3; ++i) {
    const double e = std::clamp(std::log2(std::max(v[i], 1e-10)), min_ev, max_ev);
    const double x = (e - min_ev) / (max_ev - min_ev);
    const double x2 = x * x, x4 = x2 * x2;
    v[i] = 15.5 * x4 * x2 - 40.14 * x4 * x + 31.96 * x4 - 6.868 * x2 * x + 0.4298 * x2 + 0.1191 * x - 0.00232;
  }
  v = mul(out, v);
  for (int i = 0; i < 3; ++i) v[i] = std::pow(std::clamp(v[i], 0.0, 1.0), 2.2);
  return v;
}

glm::dvec3 neutral(glm::dvec3 c) {
  const double start = 0.8 - 0.04, desaturation = 0.15;
  const double x = std::min({c.r, c.g, c.b});
  const double offset = x < 0.08 ? x - 6.25 * x * x : 0.04;
  c -= offset;
  const double peak = std::max({c.r, c.g, c.b});
  if (peak < start) return c;
  const double d = 1.0 - start;
  const double new_peak = 1.0 - d * d / (peak + d - start);
  c *= new_peak / peak;
  const double g = 1.0 - 1.0 / (desaturation * (peak - new_peak) + 1.0);
  return glm::mix(c, glm::dvec3(new_peak), g);
}

}  // namespace

const char* tonemapper_name(Tonemapper t) {
  return kNames[uint32_t(t)];
}

std::optional<Tonemapper> parse_tonemapper(const std::string& name) {
  for (uint32_t i = 0; i < kTonemapperCount; ++i)
    if (name == kNames[i]) return Tonemapper(i);
  return std::nullopt;
}

std::string tonemapper_names(const char* separator) {
  std::string out;
  for (const char* n : kNames) out += (out.empty() ? "" : separator) + std::string(n);
  return out;
}

std::vector<std::string> tonemapper_name_list() {
  return {std::begin(kNames), std::end(kNames)};
}

glm::dvec3 tonemap(glm::dvec3 x, Tonemapper t) {
  // Below 0 is no light; above 64 every curve has saturated (and x * x stays finite).
  for (int i = 0; i < 3; ++i) x[i] = std::isnan(x[i]) ? 0.0 : std::clamp(x[i], 0.0, 64.0);
  switch (t) {
    case Tonemapper::Aces: return clamp01((x * (2.51 * x + 0.03)) / (x * (2.43 * x + 0.59) + 0.14));
    case Tonemapper::Reinhard: {
      const double l = luminance(x);
      return l > 0.0 ? clamp01(x * (1.0 / (1.0 + l))) : glm::dvec3(0.0);
    }
    case Tonemapper::Hable: {
      const double white = 11.2, bias = 2.0;
      glm::dvec3 out;
      for (int i = 0; i < 3; ++i) out[i] = hable_partial(bias * x[i]) / hable_partial(white);
      return clamp01(out);
    }
    case Tonemapper::Agx: return clamp01(agx(x));
    case Tonemapper::Neutral: return clamp01(neutral(x));
    case Tonemapper::None: return clamp01(x);
  }
  return x;
}

io::ImageU8 hdr_to_display(const io::ImageF& image, float exposure, Tonemapper t) {
  io::ImageU8 out{image.width, image.height, std::vector<uint8_t>(size_t(image.width) * image.height * 4)};
  auto encode = [](double v) {
    const double srgb = v <= 0.0031308 ? 12.92 * v : 1.055 * std::pow(v, 1.0 / 2.4) - 0.055;
    return uint8_t(std::lround(std::clamp(srgb, 0.0, 1.0) * 255.0));
  };
  for (size_t i = 0, n = size_t(image.width) * image.height; i < n; ++i) {
    const float* px = &image.pixels[i * image.channels];
    const glm::dvec3 c = image.channels == 1 ? glm::dvec3(px[0])
                                             : glm::dvec3(px[0], px[1], image.channels >= 3 ? px[2] : 0.0f);
    const glm::dvec3 shown = tonemap(c * double(exposure), t);
    for (int k = 0; k < 3; ++k) out.rgba[i * 4 + k] = encode(shown[k]);
    out.rgba[i * 4 + 3] = 255;
  }
  return out;
}

double auto_exposure(const io::ImageF& image) {
  double sum = 0.0;
  const size_t pixels = size_t(image.width) * image.height;
  for (size_t p = 0; p < pixels; ++p) {
    const float* px = &image.pixels[p * image.channels];
    const glm::dvec3 c = image.channels >= 3 ? glm::dvec3(px[0], px[1], px[2]) : glm::dvec3(px[0]);
    const double l = luminance(c);
    sum += std::log(std::isnan(l) ? EXPOSURE_MIN_LUMINANCE : std::max(l, EXPOSURE_MIN_LUMINANCE));
  }
  return EXPOSURE_KEY / std::exp(sum / double(pixels));
}

}  // namespace filterlab::passes
