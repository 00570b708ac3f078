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

// Vertex buffer layout (binding 0), see ScenePass: position, normal, object, then the texture
// coordinate sets 0 and 1 and the tangent (xyz, w = handedness +-1; w = 0: none given, the fragment
// shader derives a frame from the texture coordinates' derivatives). The built-in scene leaves the
// last three zero.
struct Vertex {
  glm::vec3 position;
  glm::vec3 normal;
  uint32_t object;  // index into the ObjectGpu array
  glm::vec2 uv0{0.0f}, uv1{0.0f};
  glm::vec4 tangent{0.0f};
};
static_assert(sizeof(Vertex) == 60);
static_assert(offsetof(Vertex, normal) == 12 && offsetof(Vertex, object) == 24);
static_assert(offsetof(Vertex, uv0) == 28 && offsetof(Vertex, uv1) == 36 && offsetof(Vertex, tangent) == 44);

// One indexed triangle list (CCW front faces) for the whole scene.
struct Mesh {
  std::vector<Vertex> vertices;
  std::vector<uint32_t> indices;
};

// ---- materials and textures (glTF's metallic-roughness model) ----

// A material's texture slots, in binding order (scene_config.h: BINDING_SCENE_TEXTURES + slot).
enum class TextureSlot : uint32_t { BaseColor, MetallicRoughness, Normal, Occlusion, Emissive };
constexpr uint32_t kTextureSlots = 5;
enum class AlphaMode : uint32_t { Opaque = 0, Mask = 1, Blend = 2 };

// Uniform block, binding BINDING_SCENE_MATERIAL, std140 (mirrored in scene_common.glsl): a draw's.
// A fragment's colour is the object's factors (ObjectGpu) times the material's times its textures',
// so the built-in scene's objects use material 0, the identity.
struct MaterialGpu {
  glm::vec4 base_color{1.0f};      // linear rgb and alpha factor
  glm::vec4 emissive{0.0f};        // rgb radiance factor (with KHR_materials_emissive_strength)
  glm::vec4 params{0, 1, 1, 1};    // metallic, roughness, normal scale, occlusion strength
  glm::vec4 alpha{0.5f, 0, 0, 0};  // x = alpha cutoff (MASK)
  glm::uvec4 flags{0u};            // x = AlphaMode, y = bit per TextureSlot that has a texture
  // Per slot, KHR_texture_transform as two rows of a 2x3 matrix applied to (u, v, 1); row 0's w is
  // the texture coordinate set (0 or 1).
  glm::vec4 uv_transform[kTextureSlots][2] = {{{1, 0, 0, 0}, {0, 1, 0, 0}},
                                              {{1, 0, 0, 0}, {0, 1, 0, 0}},
                                              {{1, 0, 0, 0}, {0, 1, 0, 0}},
                                              {{1, 0, 0, 0}, {0, 1, 0, 0}},
                                              {{1, 0, 0, 0}, {0, 1, 0, 0}}};
};
static_assert(sizeof(MaterialGpu) == 240);
static_assert(offsetof(MaterialGpu, uv_transform) == 80);

// How a texture is sampled (glTF's sampler). mip None: level 0 only.
struct SamplerState {
  enum class Filter : uint8_t { Nearest, Linear };
  enum class Wrap : uint8_t { Repeat, ClampToEdge, MirroredRepeat };
  Filter mag = Filter::Linear, min = Filter::Linear;
  std::optional<Filter> mip = Filter::Linear;
  Wrap wrap_u = Wrap::Repeat, wrap_v = Wrap::Repeat;
  friend bool operator==(const SamplerState&, const SamplerState&) = default;
};

// A decoded texture: RGBA8, rows top-down (glTF's (0, 0) is the top-left texel). `srgb`: the
// samples encode colour (base colour, emissive); else they are linear data. The GPU builds its mips.
struct TextureImage {
  std::string name;
  uint32_t width = 0, height = 0;
  std::vector<uint8_t> rgba;
  bool srgb = false;
};

struct TextureBinding {
  uint32_t image;    // into SceneAssets::images
  uint32_t sampler;  // into SceneAssets::samplers
};

struct Material {
  MaterialGpu gpu;
  std::optional<TextureBinding> textures[kTextureSlots];
};

// A range of the index buffer drawn with one material. Blended draws are drawn after the others,
// the farthest first (by `center`, in the object's space, against the camera each frame).
struct Draw {
  uint32_t first_index = 0, index_count = 0;
  uint32_t material = 0;
  uint32_t object = 0;
  glm::vec3 center{0.0f};
  bool blend = false;
};

// What the scene pass uploads once.
struct SceneAssets {
  Mesh mesh;
  std::vector<Draw> draws;
  std::vector<Material> materials;  // [0] is the identity
  std::vector<TextureImage> images;
  std::vector<SamplerState> samplers;
};

// Storage buffer element, binding BINDING_SCENE_LIGHTS, std430: KHR_lights_punctual's lights in
// world space (a file with none is lit by the built-in sun).
enum class LightType : uint32_t { Directional = 0, Point = 1, Spot = 2 };
struct LightGpu {
  glm::vec4 position_range;   // xyz world position, w = range (0: infinite)
  glm::vec4 direction_type;   // xyz the direction the light points (world), w = LightType
  glm::vec4 color_intensity;  // linear rgb, w = intensity
  glm::vec4 cone;             // x = cos(outer cone), y = cos(inner cone)
};
static_assert(sizeof(LightGpu) == 64);

// Uniform buffer, set 0 binding 0, std140. Only mat4/vec4 members, so the C++
// layout equals std140 without any padding.
struct CameraGpu {
  glm::mat4 view_proj_jittered;  // used for gl_Position
  glm::mat4 view_proj;           // unjittered current frame (motion vectors)
  glm::mat4 prev_view_proj;      // unjittered previous frame
  glm::vec4 camera_position;     // xyz
  glm::vec4 sun_direction;       // xyz normalized towards the sun, w = intensity
  glm::vec4 viewport_jitter;     // xy = viewport size px, zw = jitter px
  glm::uvec4 counts{0u};         // x = lights (LightGpu); 0: the sun above lights the scene
};
static_assert(sizeof(CameraGpu) == 256);  // 3 * 64 + 4 * 16
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
  std::vector<LightGpu> lights;    // the file's lights this frame; camera.counts.x of them
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
  // The mesh, its draws, materials and textures. The built-in scene: one draw of material 0.
  virtual const SceneAssets& assets() const = 0;
  virtual uint32_t object_count() const = 0;
  virtual uint32_t light_count() const { return 0; }
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
