#include "scene/scene_content.h"

#include <gtest/gtest.h>

#include <cstring>

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
  EXPECT_EQ(sizeof(fs::Vertex), 28u);
  EXPECT_EQ(sizeof(fs::CameraGpu), 240u);  // 3 mat4 + 3 vec4
  EXPECT_EQ(sizeof(fs::ObjectGpu), 160u);
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
