// glTF materials on screen, against CPU models of the sampling and the shading: a textured quad
// seen square-on by an orthographic file camera, so that pixel (x, y) of an N x N image shows
// texture coordinate ((x + 0.5) / N, (y + 0.5) / N). Each scene holds a directional light of
// intensity 0 (KHR_lights_punctual replaces the sun) and materials that reflect nothing (black,
// metallic: no diffuse, F0 = 0), so a pixel is its emission alone: emissiveFactor times the
// emissive texture, which is sRGB-encoded as glTF says. The scene image is RGBA16F: a value is
// exact to half precision, 2^-11 relative.
#include "gpu_test_util.h"

#include "io/image_io.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <numbers>

namespace filterlab {
namespace {

double srgb_to_linear(double code) {
  const double c = code / 255.0;
  return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}
double linear_to_srgb_code(double v) {
  const double c = v <= 0.0031308 ? v * 12.92 : 1.055 * std::pow(v, 1.0 / 2.4) - 0.055;
  return c * 255.0;
}

// An RGBA8 test texture: texel (x, y) from `texel`.
io::ImageU8 make_texture(uint32_t size,
                         const std::function<std::array<uint8_t, 4>(uint32_t, uint32_t)>& texel) {
  io::ImageU8 t{size, size, std::vector<uint8_t>(size_t(size) * size * 4)};
  for (uint32_t y = 0; y < size; ++y)
    for (uint32_t x = 0; x < size; ++x) {
      const auto v = texel(x, y);
      std::copy(v.begin(), v.end(), t.rgba.begin() + (size_t(y) * size + x) * 4);
    }
  return t;
}

// A scene of 2 x 2 quads facing +z at the given depths (x, y in [-1, 1], texture coordinates (0, 0)
// at the top-left, (1, 1) at the bottom-right), each with its material; the camera "eye" at the
// origin, orthographic with xmag = ymag = 1, so the quads fill a square image. `lights` is
// KHR_lights_punctual's array (default: one directional light of intensity 0, at the eye's node).
struct Scene {
  std::vector<std::pair<float, std::string>> quads;  // depth (z), material JSON
  std::string textures = "[]", images = "[]", samplers = "[]";
  std::string lights = R"([{"type": "directional", "intensity": 0}])";
  std::string light_node = R"("extensions": {"KHR_lights_punctual": {"light": 0}})";

  std::string json() const {
    std::string nodes, meshes, materials;
    for (size_t i = 0; i < quads.size(); ++i) {
      const std::string n = std::to_string(i);
      nodes += R"({"mesh": )" + n + R"(, "translation": [0, 0, )" + std::to_string(quads[i].first) + "]},";
      meshes += std::string(i ? "," : "") +
                R"({"primitives": [{"attributes": {"POSITION": 0, "TEXCOORD_0": 1},
                 "indices": 2, "material": )" +
                n + "}]}";
      materials += std::string(i ? "," : "") + quads[i].second;
    }
    std::string roots;
    for (size_t i = 0; i <= quads.size(); ++i) roots += (i ? "," : "") + std::to_string(i);
    return R"({"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [)" + roots + R"(]}],
  "extensionsUsed": ["KHR_lights_punctual", "KHR_texture_transform"],
  "extensions": {"KHR_lights_punctual": {"lights": )" +
           lights + R"(}},
  "nodes": [)" +
           nodes + R"({"name": "eye", "camera": 0, )" + light_node + R"(}],
  "cameras": [{"name": "eye", "type": "orthographic",
               "orthographic": {"xmag": 1, "ymag": 1, "znear": 0.1, "zfar": 100}}],
  "meshes": [)" +
           meshes + R"(], "materials": [)" + materials + R"(],
  "textures": )" +
           textures + R"(, "images": )" + images + R"(, "samplers": )" + samplers + R"(,
  "accessors": [
    {"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3", "min": [-1, -1, 0], "max": [1, 1, 0]},
    {"bufferView": 1, "componentType": 5126, "count": 4, "type": "VEC2"},
    {"bufferView": 2, "componentType": 5123, "count": 6, "type": "SCALAR"}],
  "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 48}, {"buffer": 0, "byteOffset": 48, "byteLength": 32},
                  {"buffer": 0, "byteOffset": 80, "byteLength": 12}],
  "buffers": [{"byteLength": 92, "uri": "quad.bin"}]})";
  }

  // Writes the scene (scene.gltf) and its buffer to `dir`.
  void write(const std::string& dir) const {
    const float positions[] = {-1, -1, 0, 1, -1, 0, 1, 1, 0, -1, 1, 0};
    const float uvs[] = {0, 1, 1, 1, 1, 0, 0, 0};
    const uint16_t indices[] = {0, 1, 2, 0, 2, 3};
    std::ofstream bin(dir + "/quad.bin", std::ios::binary);
    bin.write(reinterpret_cast<const char*>(positions), sizeof positions);
    bin.write(reinterpret_cast<const char*>(uvs), sizeof uvs);
    bin.write(reinterpret_cast<const char*>(indices), sizeof indices);
    bin.close();
    std::ofstream(dir + "/scene.gltf") << json();
  }

  // Writes the scene, renders `size` x `size` and returns the scene image.
  io::ImageF render(const std::string& dir, uint32_t size, const std::string& more = "") const {
    write(dir);
    const std::string s = std::to_string(size);
    const auto r = test::run_binary(
        "run --headless --validation --frames 1 --warmup 0 --quiet --size " + s + "x" + s + " --scene " +
        dir + "/scene.gltf --scene-camera eye --capture scene=" + dir + "/scene.pfm " + more);
    EXPECT_EQ(r.exit_code, 0) << r.output;
    EXPECT_EQ(r.output, "") << "no note, no message";
    return r.exit_code == 0 ? io::read_pfm(dir + "/scene.pfm") : io::ImageF{};
  }
};

// A material that shows its emissive texture (texture 0) and nothing else.
const std::string kEmissiveTexture = R"({"pbrMetallicRoughness": {"baseColorFactor": [0, 0, 0, 1],
  "metallicFactor": 1}, "emissiveFactor": [1, 1, 1], "emissiveTexture": {"index": 0}})";

std::string emissive(float r, float g, float b, const std::string& more = "") {
  return R"({"pbrMetallicRoughness": {"baseColorFactor": [0, 0, 0, 1], "metallicFactor": 1}, "emissiveFactor": [)" +
         std::to_string(r) + "," + std::to_string(g) + "," + std::to_string(b) + "]" + more + "}";
}

// Eight codes 32 apart, so that a wrong texel is off by far more than the tolerance.
uint8_t code(uint32_t x, uint32_t y, uint32_t c) {
  return uint8_t(16 + 32 * ((x * 5 + y * 3 + c * 7 + (x * y) % 3) % 8));
}

// dir/texture.png, `texels` a side: texel (x, y) of channel c is code(x, y, c), opaque.
void write_code_texture(const std::string& dir, uint32_t texels) {
  io::write_png(dir + "/texture.png", make_texture(texels, [](uint32_t x, uint32_t y) {
                  return std::array<uint8_t, 4>{code(x, y, 0), code(x, y, 1), code(x, y, 2), 255};
                }));
}

// One quad at z = -5 with `material`, whose texture 0 is texture.png read through `sampler`.
Scene textured_quad(const std::string& material, const std::string& sampler) {
  Scene scene;
  scene.quads = {{-5.0f, material}};
  scene.images = R"([{"uri": "texture.png"}])";
  scene.textures = R"([{"source": 0, "sampler": 0}])";
  scene.samplers = "[" + sampler + "]";
  return scene;
}

// Sampling, on data stored linearly (the occlusion texture, UNORM: texel code n reads n / 255
// exactly): occlusion scales the ambient term alone, so the pixel over the same scene's pixel
// without the texture is the sampled value (the ratio of two half-precision values: within 2^-10
// relative). NEAREST shows one texel: its footprint's pixels are bit for bit the same, and the value
// is the texel's within 1e-3 (a neighbouring texel is >= 0.125 away); LINEAR the bilinear mean with
// REPEAT (the edge pixels blend with the far side) within 1e-3 of the exact mean or of that mean
// rounded to an 8-bit code, as llvmpipe's 8-bit filtering returns it.
TEST(GltfMaterial, NearestMagnificationShowsTheTexelsAndLinearTheirBilinearMeanWithRepeat) {
  const std::string dir = test::temp_dir("gltf-texture");
  constexpr uint32_t kTexels = 8, kPixels = 64;
  io::write_png(dir + "/texture.png", make_texture(kTexels, [](uint32_t x, uint32_t y) {
                  return std::array<uint8_t, 4>{code(x, y, 0), 0, 0, 255};
                }));
  const std::string grey =
      R"({"pbrMetallicRoughness": {"baseColorFactor": [1, 1, 1, 1], "metallicFactor": 0})";
  Scene plain;
  plain.quads = {{-5.0f, grey + "}"}};
  const io::ImageF ambient = plain.render(dir, kPixels);
  ASSERT_EQ(ambient.width, kPixels);
  for (const bool nearest : {true, false}) {
    const Scene scene =
        textured_quad(grey + R"(, "occlusionTexture": {"index": 0}})",
                      nearest ? R"({"magFilter": 9728, "minFilter": 9728, "wrapS": 33071, "wrapT": 33071})"
                              : R"({"magFilter": 9729, "minFilter": 9729, "wrapS": 10497, "wrapT": 10497})");
    const io::ImageF image = scene.render(dir, kPixels);
    ASSERT_EQ(image.width, kPixels);
    double worst = 0;
    for (uint32_t y = 0; y < kPixels; ++y)
      for (uint32_t x = 0; x < kPixels; ++x) {
        const double u = (x + 0.5) / kPixels * kTexels, v = (y + 0.5) / kPixels * kTexels;
        double expected;
        if (nearest) {
          expected = code(uint32_t(u), uint32_t(v), 0) / 255.0;
        } else {
          const double fu = u - 0.5, fv = v - 0.5;
          const int x0 = int(std::floor(fu)), y0 = int(std::floor(fv));
          const double wx = fu - x0, wy = fv - y0;
          auto at = [&](int tx, int ty) {
            return code(uint32_t((tx + kTexels) % kTexels), uint32_t((ty + kTexels) % kTexels), 0) / 255.0;
          };
          expected = (1 - wy) * ((1 - wx) * at(x0, y0) + wx * at(x0 + 1, y0)) +
                     wy * ((1 - wx) * at(x0, y0 + 1) + wx * at(x0 + 1, y0 + 1));
        }
        const double sampled = image.at(x, y, 0) / ambient.at(x, y, 0);
        // llvmpipe filters 8-bit texels in 8-bit fixed point: its result is the mean rounded to a
        // code (up to 1/510 off the exact mean). Either model, within 1e-3.
        const double as_code = std::round(expected * 255.0) / 255.0;
        const double error = std::min(std::abs(sampled - expected), std::abs(sampled - as_code));
        worst = std::max(worst, error);
        ASSERT_LE(error, 1e-3) << x << "," << y << ": " << sampled << ", exact mean " << expected;
        if (nearest) {
          ASSERT_EQ(image.at(x, y, 0),
                    image.at(uint32_t(u) * kPixels / kTexels, uint32_t(v) * kPixels / kTexels, 0))
              << x << "," << y << ": not one texel's value across its footprint";
        }
      }
    std::cout << (nearest ? "nearest" : "linear") << ": worst error " << worst << "\n";
  }
  std::filesystem::remove_all(dir);
}

// sRGB textures (base colour, emissive) are decoded before filtering. NEAREST: every pixel of a
// texel's footprint the same value, and that value the texel's decoded within 3e-3 (llvmpipe
// decodes sRGB with a polynomial: about 1.4e-3 off the exact curve at worst, measured; a
// neighbouring texel is >= 0.024 away).
TEST(GltfMaterial, SrgbTexturesAreDecodedTexelForTexel) {
  const std::string dir = test::temp_dir("gltf-srgb");
  constexpr uint32_t kTexels = 8, kPixels = 64;
  write_code_texture(dir, kTexels);
  const Scene scene = textured_quad(kEmissiveTexture, R"({"magFilter": 9728, "minFilter": 9728})");
  const io::ImageF image = scene.render(dir, kPixels);
  ASSERT_EQ(image.width, kPixels);
  double worst = 0;
  for (uint32_t y = 0; y < kPixels; ++y)
    for (uint32_t x = 0; x < kPixels; ++x)
      for (uint32_t c = 0; c < 3; ++c) {
        const uint32_t tx = x * kTexels / kPixels, ty = y * kTexels / kPixels;
        const uint32_t first_x = tx * kPixels / kTexels, first_y = ty * kPixels / kTexels;
        ASSERT_EQ(image.at(x, y, c), image.at(first_x, first_y, c)) << x << "," << y << " c" << c;
        const double expected = srgb_to_linear(code(tx, ty, c));
        worst = std::max(worst, std::abs(image.at(x, y, c) - expected));
        ASSERT_NEAR(image.at(x, y, c), expected, 3e-3) << x << "," << y << " c" << c;
      }
  std::cout << "sRGB decode: worst error " << worst << "\n";
  std::filesystem::remove_all(dir);
}

// The GPU builds the mips: each level a 2 x 2 mean of the one above, in linear light, stored as
// 8-bit sRGB. A 64 x 64 texture on 8 x 8 pixels is read at level 3 (NEAREST_MIPMAP_NEAREST).
TEST(GltfMaterial, MipsBuiltOnTheGpuAreTheBoxMeansOfTheLevelAbove) {
  const std::string dir = test::temp_dir("gltf-mips");
  constexpr uint32_t kTexels = 64, kPixels = 8;
  auto texel = [](uint32_t x, uint32_t y, uint32_t c) {
    return uint8_t((x * 37 + y * 91 + c * 53 + x * y) % 256);
  };
  io::write_png(dir + "/texture.png", make_texture(kTexels, [&](uint32_t x, uint32_t y) {
                  return std::array<uint8_t, 4>{texel(x, y, 0), texel(x, y, 1), texel(x, y, 2), 255};
                }));
  const Scene scene = textured_quad(kEmissiveTexture, R"({"magFilter": 9728, "minFilter": 9984})");
  const io::ImageF image = scene.render(dir, kPixels);
  ASSERT_EQ(image.width, kPixels);
  for (uint32_t c = 0; c < 3; ++c) {
    // The CPU's levels: 2 x 2 means in linear light, each rounded to an 8-bit sRGB code.
    std::vector<double> level(kTexels * kTexels);
    for (uint32_t i = 0; i < level.size(); ++i) level[i] = texel(i % kTexels, i / kTexels, c);
    uint32_t side = kTexels;
    while (side > kPixels) {
      const uint32_t half = side / 2;
      std::vector<double> next(half * half);
      for (uint32_t y = 0; y < half; ++y)
        for (uint32_t x = 0; x < half; ++x) {
          double mean = 0;
          for (uint32_t k = 0; k < 4; ++k)
            mean += srgb_to_linear(level[(2 * y + k / 2) * side + 2 * x + k % 2]) / 4;
          next[y * half + x] = std::round(linear_to_srgb_code(mean));
        }
      level = next;
      side = half;
    }
    for (uint32_t y = 0; y < kPixels; ++y)
      for (uint32_t x = 0; x < kPixels; ++x) {
        // A blit may round each level differently: within one code of the CPU's at every level
        // is within 1.5 codes at the last (the means of rounded codes drift by at most half one).
        const double shown = linear_to_srgb_code(image.at(x, y, c));
        EXPECT_NEAR(shown, level[y * kPixels + x], 1.5) << x << "," << y << " c" << c;
      }
  }
  std::filesystem::remove_all(dir);
}

// KHR_texture_transform moves the texture coordinates as its GLSL says: scale, then rotate, then
// offset. A 4 x 4 texture, NEAREST and REPEAT, so each pixel names one texel.
TEST(GltfMaterial, KhrTextureTransformMovesTheCoordinatesAsTheExtensionSays) {
  const std::string dir = test::temp_dir("gltf-transform");
  constexpr uint32_t kTexels = 4, kPixels = 48;
  write_code_texture(dir, kTexels);
  const double sx = 1.5, sy = 0.75, rotation = 0.4, ox = 0.3, oy = -0.2;
  const Scene scene =
      textured_quad(R"({"pbrMetallicRoughness": {"baseColorFactor": [0, 0, 0, 1], "metallicFactor": 1},
    "emissiveFactor": [1, 1, 1], "emissiveTexture": {"index": 0, "extensions": {"KHR_texture_transform":
    {"scale": [1.5, 0.75], "rotation": 0.4, "offset": [0.3, -0.2]}}}})",
                    R"({"magFilter": 9728, "minFilter": 9728})");
  const io::ImageF image = scene.render(dir, kPixels);
  ASSERT_EQ(image.width, kPixels);
  size_t checked = 0;
  for (uint32_t y = 0; y < kPixels; ++y)
    for (uint32_t x = 0; x < kPixels; ++x) {
      const double u = (x + 0.5) / kPixels, v = (y + 0.5) / kPixels;
      // mat3 translation * rotation * scale of the extension's GLSL, columns (cos, sin), (-sin, cos).
      const double su = sx * u, sv = sy * v;
      const double tu = std::cos(rotation) * su - std::sin(rotation) * sv + ox;
      const double tv = std::sin(rotation) * su + std::cos(rotation) * sv + oy;
      const double fu = tu * kTexels - std::floor(tu * kTexels), fv = tv * kTexels - std::floor(tv * kTexels);
      if (std::min({fu, 1 - fu, fv, 1 - fv}) < 0.02) continue;  // too near a texel edge to name one
      const auto wrap = [](double t) {
        return uint32_t(std::floor((t - std::floor(t)) * kTexels)) % kTexels;
      };
      for (uint32_t c = 0; c < 3; ++c) {
        const double expected = srgb_to_linear(code(wrap(tu), wrap(tv), c));
        ASSERT_NEAR(image.at(x, y, c), expected, 3e-3) << x << "," << y << " c" << c;  // sRGB decode, above
      }
      ++checked;
    }
  EXPECT_GT(checked, kPixels * kPixels * 3 / 4);
  std::filesystem::remove_all(dir);
}

// Alpha modes: MASK shows what is behind where the base colour's alpha is below the cutoff; BLEND
// mixes by alpha over what is behind, and leaves the motion vectors alone.
TEST(GltfMaterial, MaskCutsOutAndBlendMixesByAlpha) {
  const std::string dir = test::temp_dir("gltf-alpha");
  constexpr uint32_t kTexels = 4, kPixels = 32;
  io::write_png(dir + "/alpha.png", make_texture(kTexels, [](uint32_t x, uint32_t y) {
                  return std::array<uint8_t, 4>{255, 255, 255, uint8_t((x + y) % 2 ? 255 : 0)};
                }));
  const std::string behind = emissive(0.2f, 0.4f, 0.6f);
  Scene mask;
  mask.quads = {{-6.0f, behind},
                {-5.0f, R"({"pbrMetallicRoughness": {"baseColorFactor": [0, 0, 0, 1], "metallicFactor": 1,
                  "baseColorTexture": {"index": 0}}, "emissiveFactor": [1, 0, 0], "alphaMode": "MASK",
                  "alphaCutoff": 0.5})"}};
  mask.images = R"([{"uri": "alpha.png"}])";
  mask.textures = R"([{"source": 0, "sampler": 0}])";
  mask.samplers = R"([{"magFilter": 9728, "minFilter": 9728}])";
  const io::ImageF masked = mask.render(dir, kPixels);
  ASSERT_EQ(masked.width, kPixels);
  for (uint32_t y = 0; y < kPixels; ++y)
    for (uint32_t x = 0; x < kPixels; ++x) {
      const bool opaque = (x * kTexels / kPixels + y * kTexels / kPixels) % 2;
      const float expected[3] = {opaque ? 1.0f : 0.2f, opaque ? 0.0f : 0.4f, opaque ? 0.0f : 0.6f};
      for (uint32_t c = 0; c < 3; ++c) ASSERT_NEAR(masked.at(x, y, c), expected[c], 1e-3) << x << "," << y;
    }

  Scene blend;
  blend.quads = {{-6.0f, behind}, {-5.0f, R"({"pbrMetallicRoughness": {"baseColorFactor": [0, 0, 0, 0.25],
                  "metallicFactor": 1}, "emissiveFactor": [1, 0, 0], "alphaMode": "BLEND"})"}};
  const io::ImageF blended = blend.render(dir, kPixels, "--capture motion=" + dir + "/motion.pfm");
  ASSERT_EQ(blended.width, kPixels);
  const float expected[3] = {0.25f * 1.0f + 0.75f * 0.2f, 0.75f * 0.4f, 0.75f * 0.6f};
  for (uint32_t c = 0; c < 3; ++c) EXPECT_NEAR(blended.at(16, 16, c), expected[c], 1e-3) << "c" << c;
  std::filesystem::remove_all(dir);
}

// KHR_lights_punctual: a point light at the eye over a white rough dielectric quad adds, at each
// pixel, (1/pi + F0 D V) * intensity / d^2 * n.l, windowed by 1 - (d / range)^4; a spot adds it
// inside its inner cone and nothing outside its outer one. Measured as the difference from the
// same scene with the light's intensity 0 (the ambient term cancels).
TEST(GltfMaterial, PunctualLightsFallOffAsTheExtensionSays) {
  const std::string dir = test::temp_dir("gltf-lights");
  constexpr uint32_t kPixels = 32;
  const std::string white = R"({"pbrMetallicRoughness": {"baseColorFactor": [1, 1, 1, 1], "metallicFactor": 0,
    "roughnessFactor": 1}})";
  auto render = [&](const std::string& light) {
    Scene s;
    s.quads = {{-5.0f, white}};
    s.lights = "[" + light + "]";
    return s.render(dir, kPixels);
  };
  const io::ImageF dark = render(R"({"type": "point", "intensity": 0})");
  const double intensity = 50, range = 5.3;
  const io::ImageF point = render(R"({"type": "point", "intensity": 50, "range": 5.3})");
  const io::ImageF spot = render(R"({"type": "spot", "intensity": 50, "spot": {"innerConeAngle": 0.1,
    "outerConeAngle": 0.2}})");
  ASSERT_EQ(point.width, kPixels);
  ASSERT_EQ(spot.width, kPixels);
  size_t inside = 0, outside = 0;
  for (uint32_t y = 0; y < kPixels; ++y)
    for (uint32_t x = 0; x < kPixels; ++x) {
      const double px = (x + 0.5) / kPixels * 2 - 1, py = 1 - (y + 0.5) / kPixels * 2;
      const double d2 = px * px + py * py + 25, d = std::sqrt(d2), n_l = 5 / d;
      // Eye and light at the origin: l = v = h, so D = 1/pi (roughness 1), V = 0.5 / (2 n.l), F = F0.
      const double brdf = (1 + 0.04 * 0.5 / (2 * n_l)) / std::numbers::pi;
      const double unwindowed = brdf * intensity / d2 * n_l;
      const double window = std::clamp(1 - std::pow(d / range, 4), 0.0, 1.0);
      const double added = point.at(x, y, 0) - dark.at(x, y, 0);
      ASSERT_NEAR(added, unwindowed * window, 2e-3 * unwindowed + 1e-3) << x << "," << y;
      const double angle = std::acos(n_l);
      const double spot_added = spot.at(x, y, 0) - dark.at(x, y, 0);
      if (angle < 0.1 - 0.005) {
        ASSERT_NEAR(spot_added, unwindowed, 2e-3 * unwindowed + 1e-3) << x << "," << y;
        ++inside;
      } else if (angle > 0.2 + 0.005) {
        ASSERT_NEAR(spot_added, 0.0, 1e-3) << x << "," << y;
        ++outside;
      }
    }
  EXPECT_GT(inside, 4u);
  EXPECT_GT(outside, 100u);
  std::filesystem::remove_all(dir);
}

// Bad textures are bad input: one line naming the scene and the problem, exit 2, nothing written.
TEST(GltfMaterial, BadTexturesAreRefusedByName) {
  const std::string dir = test::temp_dir("gltf-bad-texture");
  io::write_png(dir + "/good.png", make_texture(4, [](uint32_t, uint32_t) {
                  return std::array<uint8_t, 4>{1, 2, 3, 4};
                }));
  std::ifstream good(dir + "/good.png", std::ios::binary);
  std::string png((std::istreambuf_iterator<char>(good)), std::istreambuf_iterator<char>());
  png[png.size() / 2] ^= 0x5a;  // a damaged chunk: its CRC no longer matches
  std::ofstream(dir + "/damaged.png", std::ios::binary) << png;
  std::ofstream(dir + "/text.png") << "not an image";
  const std::string with_texture = R"({"emissiveFactor": [1, 1, 1], "emissiveTexture": {"index": 0}})";
  struct Case {
    std::string material, textures, images, samplers, why;
  };
  const Case cases[] = {
      {with_texture, R"([{"source": 0}])", R"([{"uri": "nosuch.png"}])", "[]",
       "image 0 (nosuch.png) has no pixels"},
      {with_texture, R"([{"source": 0}])", R"([{"uri": "damaged.png"}])", "[]",
       "image 0 (damaged.png): invalid PNG"},
      {with_texture, R"([{"source": 0}])", R"([{"uri": "text.png"}])", "[]", "neither a PNG nor a JPEG"},
      {with_texture, R"([{"source": 3}])", R"([{"uri": "good.png"}])", "[]",
       "has image 3, which does not exist"},
      {with_texture, R"([{"source": 0, "sampler": 2}])", R"([{"uri": "good.png"}])", "[]",
       "sampler 2, which does not exist"},
      {with_texture, R"([{"source": 0, "sampler": 0}])", R"([{"uri": "good.png"}])", R"([{"wrapS": 7}])",
       "sampler 0 has wrap mode 7"},
      {R"({"emissiveTexture": {"index": 4}})", R"([{"source": 0}])", R"([{"uri": "good.png"}])", "[]",
       "emissive texture is texture 4, which does not exist"},
      {R"({"emissiveTexture": {"index": 0, "texCoord": 2}})", R"([{"source": 0}])",
       R"([{"uri": "good.png"}])", "[]", "reads TEXCOORD_2"},
      {R"({"alphaMode": "CUTOUT"})", "[]", "[]", "[]", "alpha mode 'CUTOUT'"},
  };
  for (const Case& c : cases) {
    Scene scene;
    scene.quads = {{-5.0f, c.material}};
    scene.textures = c.textures;
    scene.images = c.images;
    scene.samplers = c.samplers;
    scene.write(dir);
    const auto r =
        test::run_binary("run --headless --validation --frames 1 --warmup 0 --quiet --size 16x16 --scene " +
                         dir + "/scene.gltf --capture scene=" + dir + "/out.pfm");
    EXPECT_EQ(r.exit_code, 2) << c.why << "\n" << r.output;
    EXPECT_NE(r.output.find("cannot read " + dir + "/scene.gltf: glTF: "), std::string::npos) << r.output;
    EXPECT_NE(r.output.find(c.why), std::string::npos) << c.why << "\n" << r.output;
    EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1) << "one line: " << r.output;
    EXPECT_FALSE(std::filesystem::exists(dir + "/out.pfm")) << c.why;
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace filterlab
