// Shared declarations for the scene shaders. Must match
// renderer/scene/scene_content.h (CameraGpu std140, ObjectGpu std430).
#ifndef FILTERLAB_SCENE_COMMON_GLSL
#define FILTERLAB_SCENE_COMMON_GLSL
#include "scene/scene_config.h"

const uint KIND_LIT = 0u;
const uint KIND_CHECKER_FLOOR = 1u;
const uint KIND_SKY = 2u;
const uint KIND_EMISSIVE = 3u;

layout(set = 0, binding = BINDING_SCENE_CAMERA, std140) uniform CameraBlock {
  mat4 view_proj_jittered;  // gl_Position only
  mat4 view_proj;           // unjittered, for motion vectors
  mat4 prev_view_proj;      // unjittered previous frame
  vec4 camera_position;     // xyz
  vec4 sun_direction;       // xyz towards the sun (normalized), w = intensity
  vec4 viewport_jitter;     // xy = viewport size px, zw = jitter px
  uvec4 counts;             // x = lights; 0: the sun lights the scene
} camera;

struct ObjectGpu {
  mat4 model;
  mat4 prev_model;
  vec4 albedo_roughness;  // rgb albedo (linear), a = roughness
  vec4 emissive_kind;     // rgb emissive radiance, w = kind
};

layout(set = 0, binding = BINDING_SCENE_OBJECTS, std430) readonly buffer ObjectBlock {
  ObjectGpu objects[];
};

// A material (scene::MaterialGpu): its factors multiply the object's and its textures'.
const uint SLOT_BASE_COLOR = 0u;
const uint SLOT_METALLIC_ROUGHNESS = 1u;
const uint SLOT_NORMAL = 2u;
const uint SLOT_OCCLUSION = 3u;
const uint SLOT_EMISSIVE = 4u;
const uint ALPHA_OPAQUE = 0u;
const uint ALPHA_MASK = 1u;
const uint ALPHA_BLEND = 2u;

// A uniform block, not a storage buffer: llvmpipe's helper lanes read storage buffers as 0, and the
// texture coordinates' derivatives need the helpers' transforms too.
layout(set = 0, binding = BINDING_SCENE_MATERIAL, std140) uniform MaterialBlock {
  vec4 base_color;  // linear rgb, alpha
  vec4 emissive;    // rgb radiance factor
  vec4 params;      // metallic, roughness, normal scale, occlusion strength
  vec4 alpha;       // x = cutoff
  uvec4 flags;      // x = alpha mode, y = bit per slot with a texture
  vec4 uv_transform[SCENE_TEXTURE_SLOTS * 2];  // per slot two rows of a 2x3 matrix; row 0's w = set
} material;

const uint LIGHT_DIRECTIONAL = 0u;
const uint LIGHT_POINT = 1u;
const uint LIGHT_SPOT = 2u;

struct LightGpu {
  vec4 position_range;   // world position, range (0: infinite)
  vec4 direction_type;   // the direction the light points, type
  vec4 color_intensity;  // linear rgb, intensity
  vec4 cone;             // cos(outer), cos(inner)
};

layout(set = 0, binding = BINDING_SCENE_LIGHTS, std430) readonly buffer LightBlock {
  LightGpu lights[];
};

#endif
