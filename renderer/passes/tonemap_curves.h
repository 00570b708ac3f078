#pragma once
// HDR -> display curves: the CPU model of display_common.glsl's (in double precision), their
// names on the command line, and automatic exposure.
#include "io/image_io.h"

#include <glm/vec3.hpp>

#include <optional>
#include <string>
#include <vector>

namespace filterlab::passes {

// None is the identity (clamped to [0, 1]): a picture shown as it is stored, what `run --image` of
// an sRGB picture (PNG, JPEG) uses unless --tonemap says otherwise.
enum class Tonemapper : uint32_t { Aces, Reinhard, Hable, Agx, Neutral, None };
constexpr uint32_t kTonemapperCount = 6;

const char* tonemapper_name(Tonemapper t);  // "aces", "reinhard", "hable", "agx", "neutral", "none"
std::optional<Tonemapper> parse_tonemapper(const std::string& name);
std::string tonemapper_names(const char* separator);  // "aces|reinhard|..."
std::vector<std::string> tonemapper_name_list();

// An exposed linear colour to display-linear RGB in [0, 1] (sRGB encoding comes after).
glm::dvec3 tonemap(glm::dvec3 exposed, Tonemapper t);

// An HDR image as the tonemap pass shows it (exposure, the curve, sRGB), on the CPU: 1 channel is
// shown as gray, 2 as R, G with B = 0; alpha is 255. What `--capture NAME=FILE.png` writes of an
// HDR image.
io::ImageU8 hdr_to_display(const io::ImageF& image, float exposure = 1.0f, Tonemapper t = Tonemapper::Aces);

// How "final" is made from the chain's HDR image: exposure (a multiplier; with `automatic`, a
// compensation on top of the image's own exposure), then the curve, then sRGB.
struct Display {
  Tonemapper tonemapper = Tonemapper::Aces;
  float exposure = 1.0f;
  bool automatic = false;
};

// The automatic exposure of an image: EXPOSURE_KEY over the geometric mean of its Rec. 709
// luminance, each pixel's floored at EXPOSURE_MIN_LUMINANCE (NaN counts as the floor).
double auto_exposure(const io::ImageF& image);

}  // namespace filterlab::passes
