#version 460
#extension GL_GOOGLE_include_directive : require
#include "scene_common.glsl"

layout(location = 0) in vec3 in_position;
layout(location = 1) in vec3 in_normal;
layout(location = 2) in uint in_object;

layout(location = 0) out vec3 out_world_position;
layout(location = 1) out vec3 out_world_normal;
layout(location = 2) flat out uint out_object;
layout(location = 3) out vec4 out_clip;       // unjittered current clip position
layout(location = 4) out vec4 out_prev_clip;  // unjittered previous clip position

void main() {
  ObjectGpu obj = objects[in_object];
  vec4 world = obj.model * vec4(in_position, 1.0);
  // The CPU only builds similarity transforms, so mat3(model) keeps normals
  // perpendicular (the fragment shader renormalizes).
  out_world_position = world.xyz;
  out_world_normal = mat3(obj.model) * in_normal;
  out_object = in_object;
  // Current and previous use the same expression shape so that identical
  // matrices give bit-identical results (exactly zero motion when static).
  out_clip = camera.view_proj * world;
  out_prev_clip = camera.prev_view_proj * (obj.prev_model * vec4(in_position, 1.0));
  gl_Position = camera.view_proj_jittered * world;
}
