#include "scene/scene_content.h"

#include <algorithm>
#include <cmath>
#include <glm/gtc/matrix_transform.hpp>
#include <numbers>

// No GLM_FORCE_* macros here on purpose: defining one in a single TU would give
// the inline glm templates different bodies in different TUs (ODR violation).
// The explicitly named perspectiveRH_ZO gives Vulkan's 0..1 depth regardless.

namespace filterlab::scene {
namespace {

enum class Shape { Sky, Floor, Sphere, Cube, Fence };

// Static description of one object. Spheres/cubes are unit shapes placed by the
// model matrix; floor, fence and sky bake their size into the geometry or use
// a uniform scale, so every model matrix is a similarity transform (the vertex
// shader can transform normals by mat3(model)).
struct ObjectDesc {
  Shape shape;
  MaterialKind kind;
  glm::vec3 position;
  float scale;  // sphere radius / cube half-size
  glm::vec3 albedo;
  float roughness;
  glm::vec3 emissive;
  // Animation (only used when animate_objects): spin about an axis plus a vertical bob.
  glm::vec3 spin_axis = {0, 1, 0};
  float spin_speed = 0;  // rad/s
  float bob_amplitude = 0;
  float bob_frequency = 0;  // rad/s
};

using MK = MaterialKind;
// One object per line: the fields in ObjectDesc order (clang-format would put one per line).
// clang-format off
const ObjectDesc kObjects[] = {
    {Shape::Sky, MK::Sky, {0, 0, 0}, 400.0f, {0, 0, 0}, 1.0f, {0, 0, 0}},
    {Shape::Floor, MK::CheckerFloor, {0, 0, 0}, 1.0f, {0.8f, 0.8f, 0.8f}, 0.45f, {0, 0, 0}},
    // Spheres: low roughness values give GGX peaks of hundreds (firefly material for filters).
    {Shape::Sphere, MK::Lit, {0.0f, 1.0f, 0.0f}, 1.0f, {0.9f, 0.9f, 0.9f}, 0.08f, {0, 0, 0}},
    {Shape::Sphere, MK::Lit, {-2.5f, 0.7f, 0.5f}, 0.7f, {0.8f, 0.1f, 0.08f}, 0.2f, {0, 0, 0}},
    {Shape::Sphere, MK::Lit, {2.5f, 0.6f, 1.0f}, 0.6f, {0.1f, 0.25f, 0.85f}, 0.35f, {0, 0, 0}},
    {Shape::Sphere, MK::Lit, {1.2f, 0.35f, 2.8f}, 0.35f, {1.0f, 0.75f, 0.3f}, 0.12f, {0, 0, 0}},
    {Shape::Sphere, MK::Lit, {-1.0f, 0.4f, -2.0f}, 0.4f, {0.15f, 0.7f, 0.2f}, 0.55f, {0, 0, 0}},
    // Small lamps: tiny, very bright emitters (bloom / tonemapping / TAA clamping stress).
    {Shape::Sphere, MK::Emissive, {-3.5f, 1.6f, -1.5f}, 0.12f, {0, 0, 0}, 1.0f, {50.0f, 35.0f, 15.0f}},
    {Shape::Sphere, MK::Emissive, {3.2f, 1.2f, 2.6f}, 0.10f, {0, 0, 0}, 1.0f, {8.0f, 14.0f, 40.0f}},
    {Shape::Sphere, MK::Emissive, {0.8f, 2.6f, -3.2f}, 0.08f, {0, 0, 0}, 1.0f, {30.0f, 8.0f, 20.0f}},
    {Shape::Sphere, MK::Emissive, {-1.8f, 0.15f, 3.0f}, 0.15f, {0, 0, 0}, 1.0f, {12.0f, 20.0f, 10.0f}},
    // Animated cubes: one spinning in place, one tumbling and bobbing, one floating.
    {Shape::Cube, MK::Lit, {3.6f, 0.5f, -1.2f}, 0.5f, {0.7f, 0.7f, 0.2f}, 0.3f, {0, 0, 0},
     {0, 1, 0}, 0.8f, 0.0f, 0.0f},
    {Shape::Cube, MK::Lit, {-3.6f, 1.3f, 1.8f}, 0.4f, {0.6f, 0.3f, 0.8f}, 0.25f, {0, 0, 0},
     {1, 1, 0}, 0.6f, 0.35f, 1.3f},
    {Shape::Cube, MK::Lit, {0.0f, 2.7f, -1.0f}, 0.3f, {0.2f, 0.8f, 0.8f}, 0.15f, {0, 0, 0},
     {0.3f, 1, 0.2f}, 1.5f, 0.15f, 2.1f},
    // Fence of thin bars: geometry baked in world space.
    {Shape::Fence, MK::Lit, {0, 0, 0}, 1.0f, {0.75f, 0.75f, 0.7f}, 0.3f, {0, 0, 0}},
};
// clang-format on
constexpr uint32_t kObjectCount = static_cast<uint32_t>(std::size(kObjects));

// Sun sits low (about 15 deg) behind the scene as seen from orbit angle 0, so
// the disc is in view and produces grazing specular on the floor.
const glm::vec3 kSunDirection = glm::normalize(glm::vec3(0.3f, 0.26f, -0.92f));
constexpr float kSunIntensity = 4.0f;

constexpr float kOrbitRadius = 12.0f, kOrbitHeight = 3.5f, kOrbitSpeed = 0.25f;
const glm::vec3 kLookAt = {0.0f, 0.8f, 0.0f};
constexpr float kFovY = 60.0f * std::numbers::pi_v<float> / 180.0f;
constexpr float kNear = 0.05f, kFar = 1000.0f;

void add_quad(Mesh& m, uint32_t obj, glm::vec3 o, glm::vec3 u, glm::vec3 v) {
  // CCW seen from the side of cross(u, v).
  const glm::vec3 n = glm::normalize(glm::cross(u, v));
  const auto base = static_cast<uint32_t>(m.vertices.size());
  for (glm::vec3 p : {o, o + u, o + u + v, o + v}) m.vertices.push_back({p, n, obj});
  for (uint32_t i : {0u, 1u, 2u, 0u, 2u, 3u}) m.indices.push_back(base + i);
}

void add_box(Mesh& m, uint32_t obj, glm::vec3 lo, glm::vec3 hi) {
  const glm::vec3 d = hi - lo;
  const glm::vec3 x{d.x, 0, 0}, y{0, d.y, 0}, z{0, 0, d.z};
  add_quad(m, obj, lo, y, x);      // -z
  add_quad(m, obj, lo + z, x, y);  // +z
  add_quad(m, obj, lo, z, y);      // -x
  add_quad(m, obj, lo + x, y, z);  // +x
  add_quad(m, obj, lo, x, z);      // -y
  add_quad(m, obj, lo + y, z, x);  // +y
}

// UV sphere of radius 1; inward = true flips normals and winding (sky dome).
void add_sphere(Mesh& m, uint32_t obj, uint32_t stacks, uint32_t slices, bool inward) {
  const auto base = static_cast<uint32_t>(m.vertices.size());
  const float pi = std::numbers::pi_v<float>;
  for (uint32_t i = 0; i <= stacks; ++i) {
    const float theta = pi * float(i) / float(stacks);  // 0 = north pole
    for (uint32_t j = 0; j <= slices; ++j) {
      const float phi = 2.0f * pi * float(j) / float(slices);
      const glm::vec3 p{std::sin(theta) * std::sin(phi), std::cos(theta), std::sin(theta) * std::cos(phi)};
      m.vertices.push_back({p, inward ? -p : p, obj});
    }
  }
  const uint32_t row = slices + 1;
  for (uint32_t i = 0; i < stacks; ++i) {
    for (uint32_t j = 0; j < slices; ++j) {
      const uint32_t a = base + i * row + j, b = a + row, c = b + 1, d = a + 1;
      if (inward) {
        for (uint32_t k : {a, d, c, a, c, b}) m.indices.push_back(k);
      } else {
        for (uint32_t k : {a, b, c, a, c, d}) m.indices.push_back(k);
      }
    }
  }
}

void add_fence(Mesh& m, uint32_t obj) {
  // 1.5 cm bars every 10 cm: well below a pixel at orbit distance, so it
  // aliases/shimmers heavily without AA. Two rails of the same thickness.
  constexpr float kZ = -4.5f, kHalfLen = 5.0f, kBar = 0.015f, kHeight = 1.2f;
  for (int i = 0; i <= 100; ++i) {
    const float x = -kHalfLen + 0.1f * float(i);
    add_box(m, obj, {x - kBar / 2, 0.0f, kZ - kBar / 2}, {x + kBar / 2, kHeight, kZ + kBar / 2});
  }
  for (float y : {0.35f, 1.1f}) {
    add_box(m, obj, {-kHalfLen, y, kZ - kBar}, {kHalfLen, y + kBar, kZ + kBar});
  }
}

glm::mat4 object_model(const ObjectDesc& o, double t, bool animate) {
  float bob = 0.0f, angle = 0.0f;
  if (animate) {
    bob = o.bob_amplitude * static_cast<float>(std::sin(o.bob_frequency * t));
    angle = static_cast<float>(o.spin_speed * t);
  }
  glm::mat4 m = glm::translate(glm::mat4(1.0f), o.position + glm::vec3(0.0f, bob, 0.0f));
  if (angle != 0.0f) m = glm::rotate(m, angle, glm::normalize(o.spin_axis));
  return glm::scale(m, glm::vec3(o.scale));
}

struct CameraPose {
  glm::vec3 eye;
  glm::mat4 view_proj;
};

// A NaN or infinite control (a broken UI value) would poison every matrix: it counts as unset.
float finite_or(float value, float fallback) {
  return std::isfinite(value) ? value : fallback;
}

// The eye on its orbit, moved by the camera controls. Without pitch or distance changes the eye is
// computed exactly as before the controls existed, so default settings stay bit-identical.
glm::vec3 eye_position(float angle, const SceneSettings& s) {
  const float pitch = finite_or(s.camera_pitch, 0.0f);
  const float scale = std::clamp(finite_or(s.camera_distance, 1.0f), kMinCameraDistance, kMaxCameraDistance);
  if (pitch == 0.0f && scale == 1.0f)
    return {kOrbitRadius * std::sin(angle), kOrbitHeight, kOrbitRadius * std::cos(angle)};
  // Spherical coordinates around the look-at point: the orbit's eye is at elevation
  // atan2(rise, radius) and distance hypot(radius, rise) from it.
  const float rise = kOrbitHeight - kLookAt.y;
  const float distance = std::hypot(kOrbitRadius, rise) * scale;
  // Above the floor: look-at height + distance * sin(elevation) >= kMinEyeHeight.
  const float lowest = std::asin(std::max((kMinEyeHeight - kLookAt.y) / distance, -1.0f));
  const float highest = std::numbers::pi_v<float> / 2 - kMaxElevationMargin;
  const float elevation = std::clamp(std::atan2(rise, kOrbitRadius) + pitch, lowest, highest);
  const float across = distance * std::cos(elevation);
  return kLookAt +
         glm::vec3(across * std::sin(angle), distance * std::sin(elevation), across * std::cos(angle));
}

// The cuts at or before `shown`.
uint32_t cuts_by(uint64_t shown, const SceneSettings& s) {
  return uint32_t(
      std::count_if(s.camera_cuts.begin(), s.camera_cuts.end(), [&](uint64_t c) { return c <= shown; }));
}

CameraPose camera_pose(double t, float aspect, const SceneSettings& s, uint32_t cuts) {
  auto angle = s.orbit_camera ? static_cast<float>(kOrbitSpeed * t) : 0.0f;
  if (cuts) angle += kCutYaw * float(cuts);
  const float yaw = finite_or(s.camera_yaw, 0.0f);
  if (yaw != 0.0f) angle += yaw;
  const glm::vec3 eye = eye_position(angle, s);
  glm::mat4 proj = glm::perspectiveRH_ZO(kFovY, aspect, kNear, kFar);
  proj[1][1] = -proj[1][1];  // Vulkan clip Y points down; flip so world +Y is up on screen.
  return {eye, proj * glm::lookAtRH(eye, kLookAt, glm::vec3(0, 1, 0))};
}

double halton(uint32_t index, uint32_t base) {
  double f = 1.0, r = 0.0;
  for (uint32_t i = index; i > 0; i /= base) {
    f /= base;
    r += f * (i % base);
  }
  return r;
}

}  // namespace

Mesh build_scene_mesh() {
  Mesh m;
  for (uint32_t i = 0; i < kObjectCount; ++i) {
    switch (kObjects[i].shape) {
      case Shape::Sky: add_sphere(m, i, 16, 32, true); break;
      case Shape::Floor:  // 300 m square; two triangles are enough, pattern is per-fragment.
        add_quad(m, i, {-150.0f, 0.0f, -150.0f}, {0.0f, 0.0f, 300.0f}, {300.0f, 0.0f, 0.0f});
        break;
      case Shape::Sphere: add_sphere(m, i, 32, 64, false); break;
      case Shape::Cube: add_box(m, i, glm::vec3(-1.0f), glm::vec3(1.0f)); break;
      case Shape::Fence: add_fence(m, i); break;
    }
  }
  return m;
}

uint32_t scene_object_count() {
  return kObjectCount;
}

namespace {

class BuiltinScene : public SceneModel {
 public:
  std::string name() const override { return "built-in scene"; }
  BuiltinScene() {
    content_.mesh = build_scene_mesh();
    content_.draws.push_back({0, uint32_t(content_.mesh.indices.size()), 0, 0, glm::vec3(0.0f), false});
    content_.materials.emplace_back();
  }
  const SceneAssets& assets() const override { return content_; }
  uint32_t object_count() const override { return scene_object_count(); }
  FrameData frame(uint64_t frame_index, uint32_t width, uint32_t height,
                  const SceneSettings& settings) const override {
    return scene_frame(frame_index, width, height, settings);
  }

 private:
  SceneAssets content_;
};

}  // namespace

std::shared_ptr<const SceneModel> builtin_scene() {
  static const auto scene = std::make_shared<const BuiltinScene>();
  return scene;
}

void append_sphere(Mesh& mesh, uint32_t object, uint32_t stacks, uint32_t slices, bool inward) {
  add_sphere(mesh, object, stacks, slices, inward);
}

glm::vec4 sun_direction_intensity() {
  return glm::vec4(kSunDirection, kSunIntensity);
}

glm::vec2 frame_jitter(uint64_t frame_index, const SceneSettings& s) {
  return s.jitter_offset ? *s.jitter_offset
         : s.jitter      ? halton_jitter(frame_index, s.jitter_length)
                         : glm::vec2(0.0f);
}

glm::vec2 halton_jitter(uint64_t frame_index, uint32_t length) {
  const auto i = static_cast<uint32_t>(frame_index % std::max(length, 1u)) + 1;
  return {static_cast<float>(halton(i, 2) - 0.5), static_cast<float>(halton(i, 3) - 0.5)};
}

FrameData scene_frame(uint64_t frame_index, uint32_t width, uint32_t height, const SceneSettings& s) {
  const uint64_t shown = s.animation_frame.value_or(frame_index);
  const double t = static_cast<double>(shown) * kFixedTimeStep;
  const double prev_t = (static_cast<double>(shown) - 1.0) * kFixedTimeStep;
  const float w = static_cast<float>(std::max(width, 1u));
  const float h = static_cast<float>(std::max(height, 1u));

  // With orbit/animation off both times collapse to the same pose through the
  // same code path, so prev == current bit-exactly and motion is exactly 0.
  // At a cut the previous pose is the current one: no camera motion across it.
  const bool cut = std::find(s.camera_cuts.begin(), s.camera_cuts.end(), shown) != s.camera_cuts.end();
  const CameraPose cur = camera_pose(t, w / h, s, cuts_by(shown, s));
  const CameraPose prev = cut ? cur : camera_pose(prev_t, w / h, s, shown == 0 ? 0 : cuts_by(shown - 1, s));
  const bool jittered = s.jitter || s.jitter_offset.has_value();
  const glm::vec2 jitter = s.jitter_offset ? *s.jitter_offset
                           : s.jitter      ? halton_jitter(frame_index, s.jitter_length)
                                           : glm::vec2(0.0f);

  // Clip-space translation: x_clip += (2 jx / w) * w_clip, i.e. an NDC shift of
  // exactly 2j/size after the perspective divide.
  glm::mat4 jitter_m(1.0f);
  jitter_m[3][0] = 2.0f * jitter.x / w;
  jitter_m[3][1] = 2.0f * jitter.y / h;

  FrameData f;
  f.camera_cut = cut;
  f.camera.view_proj = cur.view_proj;
  f.camera.prev_view_proj = prev.view_proj;
  f.camera.view_proj_jittered = jittered ? jitter_m * cur.view_proj : cur.view_proj;
  f.camera.camera_position = glm::vec4(cur.eye, 1.0f);
  f.camera.sun_direction = glm::vec4(kSunDirection, kSunIntensity);
  f.camera.viewport_jitter = glm::vec4(w, h, jitter);

  f.objects.reserve(kObjectCount);
  for (const ObjectDesc& o : kObjects) {
    ObjectGpu g;
    g.model = object_model(o, t, s.animate_objects);
    g.prev_model = object_model(o, prev_t, s.animate_objects);
    g.albedo_roughness = glm::vec4(o.albedo, o.roughness);
    g.emissive_kind = glm::vec4(o.emissive, static_cast<float>(o.kind));
    f.objects.push_back(g);
  }
  return f;
}

}  // namespace filterlab::scene
