// Deterministic procedural HDR test scene for filterlab.
//
// Everything here is CPU-side and GPU-free: the mesh is built once, and each
// frame's camera/object data is a pure function of (frame_index, size,
// settings), so captures are bit-reproducible across runs and machines.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <glm/glm.hpp>

namespace filterlab::scene {

// Vertex buffer layout (binding 0): location 0 R32G32B32_SFLOAT @0,
// location 1 R32G32B32_SFLOAT @12, location 2 R32_UINT @24, stride 28.
struct Vertex {
  glm::vec3 position;
  glm::vec3 normal;
  uint32_t object;  // index into the ObjectGpu array
};
static_assert(sizeof(Vertex) == 28);
static_assert(offsetof(Vertex, normal) == 12 && offsetof(Vertex, object) == 24);

// One indexed triangle list (CCW front faces) for the whole scene.
struct Mesh {
  std::vector<Vertex> vertices;
  std::vector<uint32_t> indices;
};

// Uniform buffer, set 0 binding 0, std140. Only mat4/vec4 members, so the C++
// layout equals std140 without any padding.
struct CameraGpu {
  glm::mat4 view_proj_jittered;  // used for gl_Position
  glm::mat4 view_proj;           // unjittered current frame (motion vectors)
  glm::mat4 prev_view_proj;      // unjittered previous frame
  glm::vec4 camera_position;     // xyz
  glm::vec4 sun_direction;       // xyz normalized towards the sun, w = intensity
  glm::vec4 viewport_jitter;     // xy = viewport size px, zw = jitter px
};
static_assert(sizeof(CameraGpu) == 240);  // 3 * 64 + 3 * 16
static_assert(offsetof(CameraGpu, camera_position) == 192);
static_assert(offsetof(CameraGpu, viewport_jitter) == 224);

// Material kinds stored in ObjectGpu::emissive_kind.w (mirrored in scene_common.glsl).
enum class MaterialKind : uint32_t { Lit = 0, CheckerFloor = 1, Sky = 2, Emissive = 3 };

// Storage buffer element, set 0 binding 1, std430.
struct ObjectGpu {
  glm::mat4 model;
  glm::mat4 prev_model;
  glm::vec4 albedo_roughness;  // rgb linear albedo, a = roughness
  glm::vec4 emissive_kind;     // rgb emissive radiance (HDR), w = MaterialKind
};
static_assert(sizeof(ObjectGpu) == 160);
static_assert(offsetof(ObjectGpu, albedo_roughness) == 128);

struct SceneSettings {
  bool orbit_camera = true;
  bool animate_objects = true;
  bool jitter = false;
  // Camera controls (the window's mouse), on top of the orbit. With these defaults the camera is
  // exactly the orbit camera.
  float camera_yaw = 0.0f;       // radians added to the orbit angle (around the vertical axis)
  float camera_pitch = 0.0f;     // radians added to the eye's elevation seen from the look-at point;
                                 // the elevation is clamped to keep the eye above the floor and
                                 // short of straight up
  float camera_distance = 1.0f;  // scale of the eye's distance to the look-at point, clamped to
                                 // [kMinCameraDistance, kMaxCameraDistance]
  // The time the scene shows (objects and orbit): none follows the frame index scene_frame gets.
  // Pause and single step set it; the jitter keeps following the frame index, so TAA still sees
  // a moving jitter while paused. The previous pose (motion vectors) is animation_frame - 1.
  std::optional<uint64_t> animation_frame;
  // Camera cuts: from each of these (shown) frames on, the camera jumps a further kCutYaw around the
  // scene. The frame of a cut has no camera motion (its previous pose is its own) and says so in
  // FrameData::camera_cut, so that temporal filters drop their history there.
  std::vector<uint64_t> camera_cuts;
  // Points of the Halton(2,3) jitter sequence before it repeats: 8 or 16.
  uint32_t jitter_length = 8;
  // A fixed sub-pixel offset (pixels, in [-0.5, 0.5)) instead of the sequence: a supersampled
  // reference renders one scene state at many offsets and averages them.
  std::optional<glm::vec2> jitter_offset;
};

constexpr float kCutYaw = 2.0f;  // radians: a different view, not a nudge

constexpr float kMinCameraDistance = 0.2f, kMaxCameraDistance = 5.0f;
// Lowest eye height above the floor (y = 0) the pitch clamp allows, and the closest the elevation
// gets to straight up (where the view's up vector would be undefined).
constexpr float kMinEyeHeight = 0.1f, kMaxElevationMargin = 0.05f;

struct FrameData {
  CameraGpu camera;
  std::vector<ObjectGpu> objects;  // size() == scene_object_count()
  bool camera_cut = false;         // the shown frame is one of SceneSettings::camera_cuts
};

// Frame k is always at time k * kFixedTimeStep, independent of wall clock.
constexpr double kFixedTimeStep = 1.0 / 60.0;

Mesh build_scene_mesh();
uint32_t scene_object_count();
// frame_index: the frame counter (jitter; also the time unless settings.animation_frame is set).
FrameData scene_frame(uint64_t frame_index, uint32_t width, uint32_t height, const SceneSettings& settings);
// Halton(2,3) at index (frame_index % length) + 1, minus 0.5: a pixel offset in [-0.5, 0.5).
glm::vec2 halton_jitter(uint64_t frame_index, uint32_t length = 8);

// What the scene pass draws: one mesh, its objects, and each frame's camera and object poses. The
// built-in scene above, or a glTF file (scene/gltf_scene.h).
class SceneModel {
 public:
  virtual ~SceneModel() = default;
  virtual std::string name() const = 0;  // "built-in scene", or the file
  virtual Mesh mesh() const = 0;
  virtual uint32_t object_count() const = 0;
  virtual FrameData frame(uint64_t frame_index, uint32_t width, uint32_t height,
                          const SceneSettings& settings) const = 0;
};
std::shared_ptr<const SceneModel> builtin_scene();

// Shared by the scene models: an inward (sky) or outward UV sphere of radius 1 around the origin,
// the sun, the camera's jitter for a frame, and the orbit's eye offset.
void append_sphere(Mesh& mesh, uint32_t object, uint32_t stacks, uint32_t slices, bool inward);
glm::vec4 sun_direction_intensity();
glm::vec2 frame_jitter(uint64_t frame_index, const SceneSettings& settings);

}  // namespace filterlab::scene
