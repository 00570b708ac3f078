#include "scene/scene_content.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <glm/gtc/matrix_transform.hpp>
#include <limits>
#include <numbers>

namespace fs = filterlab::scene;

namespace {

constexpr uint32_t kW = 1920, kH = 1080;

// Bitwise equality: determinism must hold exactly, not approximately.
template <typename T>
bool bits_equal(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

bool frames_equal(const fs::FrameData& a, const fs::FrameData& b) {
  if (!bits_equal(a.camera, b.camera) || a.objects.size() != b.objects.size()) return false;
  for (size_t i = 0; i < a.objects.size(); ++i) {
    if (!bits_equal(a.objects[i], b.objects[i])) return false;
  }
  return true;
}

glm::vec3 project(const glm::mat4& m, glm::vec3 p) {
  const glm::vec4 c = m * glm::vec4(p, 1.0f);
  return glm::vec3(c) / c.w;
}

}  // namespace

TEST(SceneContent, GpuStructSizes) {
  EXPECT_EQ(sizeof(fs::Vertex), 60u);
  EXPECT_EQ(sizeof(fs::CameraGpu), 256u);  // 3 mat4 + 4 vec4
  EXPECT_EQ(sizeof(fs::ObjectGpu), 160u);
  EXPECT_EQ(sizeof(fs::MaterialGpu), 240u);  // 5 vec4 + 10 vec4 of texture transforms
  EXPECT_EQ(sizeof(fs::LightGpu), 64u);
}

TEST(SceneContent, MeshIsValid) {
  const fs::Mesh m = fs::build_scene_mesh();
  ASSERT_FALSE(m.vertices.empty());
  ASSERT_EQ(m.indices.size() % 3, 0u);
  for (uint32_t i : m.indices) ASSERT_LT(i, m.vertices.size());
  std::vector<bool> used(fs::scene_object_count(), false);
  for (const fs::Vertex& v : m.vertices) {
    ASSERT_LT(v.object, fs::scene_object_count());
    used[v.object] = true;
    EXPECT_NEAR(glm::length(v.normal), 1.0f, 1e-4f);
  }
  for (bool u : used) EXPECT_TRUE(u);  // every object has geometry
}

TEST(SceneContent, MeshIsDeterministic) {
  const fs::Mesh a = fs::build_scene_mesh(), b = fs::build_scene_mesh();
  ASSERT_EQ(a.vertices.size(), b.vertices.size());
  ASSERT_EQ(a.indices, b.indices);
  EXPECT_EQ(std::memcmp(a.vertices.data(), b.vertices.data(), a.vertices.size() * sizeof(fs::Vertex)), 0);
}

TEST(SceneContent, FrameIsDeterministic) {
  const fs::SceneSettings s{true, true, true};
  for (uint64_t f : {0ull, 1ull, 77ull, 100000ull}) {
    const fs::FrameData a = fs::scene_frame(f, kW, kH, s), b = fs::scene_frame(f, kW, kH, s);
    EXPECT_EQ(a.objects.size(), fs::scene_object_count());
    EXPECT_TRUE(frames_equal(a, b)) << "frame " << f;
  }
}

TEST(SceneContent, StaticSceneHasNoMotion) {
  const fs::FrameData f = fs::scene_frame(123, kW, kH, {false, false, false});
  EXPECT_TRUE(bits_equal(f.camera.view_proj, f.camera.prev_view_proj));
  for (const fs::ObjectGpu& o : f.objects) EXPECT_TRUE(bits_equal(o.model, o.prev_model));
  // A fixed camera is the same on every frame.
  EXPECT_TRUE(frames_equal(f, fs::scene_frame(5, kW, kH, {false, false, false})));
}

TEST(SceneContent, OrbitAndAnimationMove) {
  const fs::FrameData f = fs::scene_frame(10, kW, kH, {true, true, false});
  EXPECT_FALSE(bits_equal(f.camera.view_proj, f.camera.prev_view_proj));
  int moving = 0;
  for (const fs::ObjectGpu& o : f.objects) moving += bits_equal(o.model, o.prev_model) ? 0 : 1;
  EXPECT_GE(moving, 2);
  // prev of frame k is exactly current of frame k-1.
  const fs::FrameData p = fs::scene_frame(9, kW, kH, {true, true, false});
  EXPECT_TRUE(bits_equal(f.camera.prev_view_proj, p.camera.view_proj));
  for (size_t i = 0; i < f.objects.size(); ++i) {
    EXPECT_TRUE(bits_equal(f.objects[i].prev_model, p.objects[i].model));
  }
}

TEST(SceneContent, HaltonJitterSequence) {
  const float x[8] = {1 / 2.f, 1 / 4.f, 3 / 4.f, 1 / 8.f, 5 / 8.f, 3 / 8.f, 7 / 8.f, 1 / 16.f};
  const float y[8] = {1 / 3.f, 2 / 3.f, 1 / 9.f, 4 / 9.f, 7 / 9.f, 2 / 9.f, 5 / 9.f, 8 / 9.f};
  for (uint64_t i = 0; i < 8; ++i) {
    const glm::vec2 j = fs::halton_jitter(i);
    EXPECT_NEAR(j.x, x[i] - 0.5f, 1e-6f) << i;
    EXPECT_NEAR(j.y, y[i] - 0.5f, 1e-6f) << i;
    EXPECT_GE(j.x, -0.5f);
    EXPECT_LT(j.x, 0.5f);
    for (uint64_t k : {8ull, 16ull, 800ull}) EXPECT_EQ(fs::halton_jitter(i + k), j);
  }
  EXPECT_NEAR(fs::halton_jitter(0).y, -1.0f / 6.0f, 1e-6f);
}

TEST(SceneContent, JitterOffDoesNotJitter) {
  const fs::FrameData f = fs::scene_frame(3, kW, kH, {true, true, false});
  EXPECT_TRUE(bits_equal(f.camera.view_proj_jittered, f.camera.view_proj));
  EXPECT_EQ(f.camera.viewport_jitter, glm::vec4(kW, kH, 0, 0));
}

TEST(SceneContent, JitterOffsetsNdcByTwoJOverSize) {
  for (uint64_t frame = 0; frame < 8; ++frame) {
    const fs::FrameData f = fs::scene_frame(frame, kW, kH, {true, true, true});
    const glm::vec2 j = fs::halton_jitter(frame);
    EXPECT_FALSE(bits_equal(f.camera.view_proj_jittered, f.camera.view_proj));
    EXPECT_EQ(glm::vec2(f.camera.viewport_jitter.z, f.camera.viewport_jitter.w), j);
    for (glm::vec3 p : {glm::vec3(0, 0.8f, 0), glm::vec3(3, 0, -2), glm::vec3(-1, 2, 1)}) {
      const glm::vec3 a = project(f.camera.view_proj_jittered, p);
      const glm::vec3 b = project(f.camera.view_proj, p);
      EXPECT_NEAR(a.x - b.x, 2.0f * j.x / kW, 1e-6f);
      EXPECT_NEAR(a.y - b.y, 2.0f * j.y / kH, 1e-6f);
      EXPECT_NEAR(a.z, b.z, 1e-7f);
    }
  }
}

TEST(SceneContent, ProjectionConventions) {
  for (uint64_t frame : {0ull, 250ull}) {
    const fs::FrameData f = fs::scene_frame(frame, kW, kH, {true, true, false});
    const glm::vec3 c = project(f.camera.view_proj, {0, 0.8f, 0});
    EXPECT_NEAR(c.x, 0.0f, 1e-5f);
    EXPECT_NEAR(c.y, 0.0f, 1e-5f);
    EXPECT_GT(c.z, 0.0f);
    EXPECT_LT(c.z, 1.0f);
    // Vulkan: up on screen is negative NDC y.
    EXPECT_LT(project(f.camera.view_proj, {0, 1.8f, 0}).y, -0.01f);
    // Camera sits on the orbit.
    const glm::vec3 eye(f.camera.camera_position);
    EXPECT_NEAR(glm::length(glm::vec2(eye.x, eye.z)), 12.0f, 1e-4f);
    EXPECT_NEAR(eye.y, 3.5f, 1e-6f);
  }
}

TEST(SceneContent, MaterialsCoverAllKindsAndHdrRange) {
  const fs::FrameData f = fs::scene_frame(0, kW, kH, {});
  bool kinds[4] = {};
  float max_emissive = 0.0f;
  for (const fs::ObjectGpu& o : f.objects) {
    const auto k = static_cast<uint32_t>(o.emissive_kind.w);
    ASSERT_LT(k, 4u);
    if (k < 4) kinds[k] = true;  // guard for -Warray-bounds; the ASSERT above fails first
    if (k == static_cast<uint32_t>(fs::MaterialKind::Emissive)) {
      const float m = glm::max(o.emissive_kind.r, glm::max(o.emissive_kind.g, o.emissive_kind.b));
      EXPECT_GE(m, 8.0f);
      EXPECT_LE(m, 50.0f);
      max_emissive = glm::max(max_emissive, m);
    }
  }
  for (bool k : kinds) EXPECT_TRUE(k);
  EXPECT_GT(max_emissive, 8.0f);
  EXPECT_NEAR(glm::length(glm::vec3(f.camera.sun_direction)), 1.0f, 1e-6f);
  EXPECT_GT(f.camera.sun_direction.w, 1.0f);
}

// ---- camera controls and the animation frame -------------------------------------------------

namespace {

// The orbit camera restated from its definition: radius 12 m at height 3.5 m, 0.25 rad/s, looking
// at (0, 0.8, 0) with a 60 degree vertical field of view, depth 0.05..1000 m, Vulkan's Y down.
const glm::vec3 kLookAt{0.0f, 0.8f, 0.0f};

// Frame k is at time k * (1/60) s (a double); frame may be -1 (frame 0's previous pose).
glm::vec3 orbit_eye(double frame, bool orbit) {
  // Read through a volatile so the compiler cannot fold sin and cos of a constant frame at
  // compile time (correctly rounded), which may differ in the last bit from the run-time libm.
  volatile double run_time_frame = frame;
  const float angle = orbit ? static_cast<float>(0.25 * (run_time_frame * (1.0 / 60.0))) : 0.0f;
  return {12.0f * std::sin(angle), 3.5f, 12.0f * std::cos(angle)};
}

glm::mat4 view_proj_from(glm::vec3 eye, float aspect) {
  glm::mat4 proj = glm::perspectiveRH_ZO(60.0f * std::numbers::pi_v<float> / 180.0f, aspect, 0.05f, 1000.0f);
  proj[1][1] = -proj[1][1];
  return proj * glm::lookAtRH(eye, kLookAt, glm::vec3(0, 1, 0));
}

fs::SceneSettings fixed_camera() {
  fs::SceneSettings s;
  s.orbit_camera = false;
  s.animate_objects = false;
  return s;
}

glm::vec3 eye_of(const fs::FrameData& f) {
  return glm::vec3(f.camera.camera_position);
}

// Elevation of the eye seen from the look-at point.
float elevation(glm::vec3 eye) {
  return std::asin((eye.y - kLookAt.y) / glm::length(eye - kLookAt));
}

}  // namespace

TEST(SceneCamera, DefaultsAreTheOrbitCameraBitForBit) {
  const fs::SceneSettings defaults;
  EXPECT_EQ(defaults.camera_yaw, 0.0f);
  EXPECT_EQ(defaults.camera_pitch, 0.0f);
  EXPECT_EQ(defaults.camera_distance, 1.0f);
  EXPECT_FALSE(defaults.animation_frame.has_value());
  for (bool orbit : {true, false})
    for (uint64_t frame : {0ull, 1ull, 77ull, 100000ull}) {
      SCOPED_TRACE((orbit ? "orbit, frame " : "fixed, frame ") + std::to_string(frame));
      fs::SceneSettings s;
      s.orbit_camera = orbit;
      const fs::FrameData f = fs::scene_frame(frame, kW, kH, s);
      const glm::vec3 eye = orbit_eye(double(frame), orbit);
      EXPECT_TRUE(bits_equal(eye_of(f), eye));
      EXPECT_TRUE(bits_equal(f.camera.view_proj, view_proj_from(eye, float(kW) / float(kH))));
      EXPECT_TRUE(bits_equal(f.camera.prev_view_proj,
                             view_proj_from(orbit_eye(double(frame) - 1.0, orbit), float(kW) / float(kH))));
      // Naming the frame the counter shows changes nothing.
      s.animation_frame = frame;
      EXPECT_TRUE(frames_equal(f, fs::scene_frame(frame, kW, kH, s)));
    }
}

TEST(SceneCamera, YawTurnsTheEyeAroundTheLookAtPointAtTheSameDistance) {
  const glm::vec3 base = eye_of(fs::scene_frame(0, kW, kH, fixed_camera()));
  for (float yaw : {0.7f, -2.0f, 3.0f}) {
    SCOPED_TRACE(yaw);
    fs::SceneSettings s = fixed_camera();
    s.camera_yaw = yaw;
    const fs::FrameData f = fs::scene_frame(0, kW, kH, s);
    const glm::vec3 eye = eye_of(f);
    EXPECT_NEAR(glm::length(eye - kLookAt), glm::length(base - kLookAt), 1e-5f);
    EXPECT_NEAR(eye.y, base.y, 1e-6f);
    // The orbit angle is measured from +z towards +x; the fixed camera sits at angle 0.
    EXPECT_NEAR(std::atan2(eye.x, eye.z), yaw, 1e-5f);
    // Still looking at the look-at point, which stays in the centre of the view.
    const glm::vec3 centre = project(f.camera.view_proj, kLookAt);
    EXPECT_NEAR(centre.x, 0.0f, 1e-5f);
    EXPECT_NEAR(centre.y, 0.0f, 1e-5f);
  }
  // On the moving orbit the yaw adds to the orbit's own angle.
  fs::SceneSettings s;
  s.camera_yaw = 0.5f;
  const glm::vec3 eye = eye_of(fs::scene_frame(240, kW, kH, s));  // t = 4 s: orbit angle 1 rad
  EXPECT_NEAR(std::atan2(eye.x, eye.z), 1.5f, 1e-5f);
}

TEST(SceneCamera, DistanceScalesTheEyesOffsetFromTheLookAtPoint) {
  const glm::vec3 base = eye_of(fs::scene_frame(0, kW, kH, fixed_camera())) - kLookAt;
  struct Case {
    float setting, scale;
  };
  for (Case c : {Case{2.0f, 2.0f}, Case{0.5f, 0.5f}, Case{5.0f, 5.0f}, Case{9.0f, 5.0f}, Case{0.01f, 0.2f},
                 Case{-1.0f, 0.2f}}) {
    SCOPED_TRACE(c.setting);
    fs::SceneSettings s = fixed_camera();
    s.camera_distance = c.setting;
    const glm::vec3 offset = eye_of(fs::scene_frame(0, kW, kH, s)) - kLookAt;
    for (int i = 0; i < 3; ++i)
      EXPECT_NEAR(offset[i], base[i] * c.scale, 1e-5f * glm::length(base) * c.scale) << i;
  }
}

TEST(SceneCamera, PitchRaisesTheEyeAndIsClampedAboveTheFloorAndShortOfStraightUp) {
  const glm::vec3 base = eye_of(fs::scene_frame(0, kW, kH, fixed_camera()));
  const float base_elevation = elevation(base);  // atan(2.7 / 12)
  EXPECT_NEAR(base_elevation, std::atan2(2.7f, 12.0f), 1e-6f);
  const float straight_up = std::numbers::pi_v<float> / 2;
  for (float distance : {1.0f, 0.2f, 5.0f}) {
    for (float pitch : {0.3f, -0.1f, 10.0f, -10.0f}) {
      SCOPED_TRACE("distance " + std::to_string(distance) + " pitch " + std::to_string(pitch));
      fs::SceneSettings s = fixed_camera();
      s.camera_pitch = pitch;
      s.camera_distance = distance;
      const fs::FrameData f = fs::scene_frame(0, kW, kH, s);
      const glm::vec3 eye = eye_of(f);
      EXPECT_NEAR(glm::length(eye - kLookAt), glm::length(base - kLookAt) * distance, 1e-4f * distance);
      const float want = base_elevation + pitch;
      if (pitch == 10.0f) {
        EXPECT_LT(elevation(eye), straight_up - 0.01f);
        EXPECT_GT(elevation(eye), straight_up - 0.1f);
        EXPECT_GT(glm::length(glm::vec2(eye.x, eye.z)), 0.0f) << "not straight up";
      } else if (pitch == -10.0f) {
        EXPECT_GE(eye.y, 0.1f - 1e-4f) << "above the floor";
        EXPECT_LT(eye.y, 0.1f + 1e-3f) << "clamped at the lowest allowed height";
      } else {
        EXPECT_NEAR(elevation(eye), want, 1e-5f);
      }
      EXPECT_GT(eye.y, 0.0f);
      // The matrices stay usable: the look-at point is in the centre, in front of the camera.
      const glm::vec3 centre = project(f.camera.view_proj, kLookAt);
      EXPECT_NEAR(centre.x, 0.0f, 1e-4f);
      EXPECT_NEAR(centre.y, 0.0f, 1e-4f);
      EXPECT_GT(centre.z, 0.0f);
      EXPECT_LT(centre.z, 1.0f);
    }
  }
}

TEST(SceneCamera, ControlsMoveBothPosesSoAStillCameraHasNoMotion) {
  fs::SceneSettings s = fixed_camera();
  s.camera_yaw = 1.0f;
  s.camera_pitch = 0.4f;
  s.camera_distance = 0.6f;
  const fs::FrameData f = fs::scene_frame(30, kW, kH, s);
  EXPECT_TRUE(bits_equal(f.camera.view_proj, f.camera.prev_view_proj));
  // Unusable values count as unset rather than poisoning the matrices.
  fs::SceneSettings bad = fixed_camera();
  bad.camera_yaw = std::numeric_limits<float>::quiet_NaN();
  bad.camera_pitch = std::numeric_limits<float>::infinity();
  bad.camera_distance = std::numeric_limits<float>::quiet_NaN();
  EXPECT_TRUE(frames_equal(fs::scene_frame(30, kW, kH, bad), fs::scene_frame(30, kW, kH, fixed_camera())));
}

TEST(SceneCamera, AnimationFrameSetsTheTimeAndTheFrameCounterTheJitter) {
  fs::SceneSettings paused;
  paused.jitter = true;
  paused.animation_frame = 50;
  fs::SceneSettings running;
  running.jitter = true;
  const fs::FrameData at50 = fs::scene_frame(50, kW, kH, running);
  const fs::FrameData at49 = fs::scene_frame(49, kW, kH, running);
  for (uint64_t counter : {0ull, 1ull, 50ull, 123ull}) {
    SCOPED_TRACE(counter);
    const fs::FrameData f = fs::scene_frame(counter, kW, kH, paused);
    // Time: orbit and objects at frame 50, whatever the counter; previous pose at frame 49.
    EXPECT_TRUE(bits_equal(eye_of(f), orbit_eye(50, true)));
    EXPECT_TRUE(bits_equal(f.camera.view_proj, at50.camera.view_proj));
    EXPECT_TRUE(bits_equal(f.camera.prev_view_proj, at49.camera.view_proj));
    for (size_t i = 0; i < f.objects.size(); ++i) {
      EXPECT_TRUE(bits_equal(f.objects[i].model, at50.objects[i].model)) << i;
      EXPECT_TRUE(bits_equal(f.objects[i].prev_model, at49.objects[i].model)) << i;
    }
    // Jitter: the counter's Halton offset.
    const glm::vec2 j = fs::halton_jitter(counter);
    EXPECT_EQ(glm::vec2(f.camera.viewport_jitter.z, f.camera.viewport_jitter.w), j);
    const glm::vec3 a = project(f.camera.view_proj_jittered, kLookAt);
    const glm::vec3 b = project(f.camera.view_proj, kLookAt);
    EXPECT_NEAR(a.x - b.x, 2.0f * j.x / kW, 1e-6f);
    EXPECT_NEAR(a.y - b.y, 2.0f * j.y / kH, 1e-6f);
  }
  // Paused, consecutive counters keep the image still but the jitter moving (what TAA needs).
  const fs::FrameData one = fs::scene_frame(10, kW, kH, paused), two = fs::scene_frame(11, kW, kH, paused);
  EXPECT_TRUE(bits_equal(one.camera.view_proj, two.camera.view_proj));
  EXPECT_FALSE(bits_equal(one.camera.view_proj_jittered, two.camera.view_proj_jittered));
}
