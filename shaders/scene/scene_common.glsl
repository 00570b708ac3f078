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

#endif
