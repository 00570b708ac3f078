#version 460
#extension GL_GOOGLE_include_directive : require
#include "scene_common.glsl"

layout(location = 0) in vec3 in_position;
layout(location = 1) in vec3 in_normal;
layout(location = 2) in uint in_object;
layout(location = 3) in vec2 in_uv0;
layout(location = 4) in vec2 in_uv1;
layout(location = 5) in vec4 in_tangent;

layout(location = 0) out vec3 out_world_position;
layout(location = 1) out vec3 out_world_normal;
layout(location = 2) flat out uint out_object;
layout(location = 3) out vec4 out_clip;       // unjittered current clip position
layout(location = 4) out vec4 out_prev_clip;  // unjittered previous clip position
layout(location = 5) out vec2 out_uv0;
layout(location = 6) out vec2 out_uv1;
layout(location = 7) out vec4 out_world_tangent;  // w = handedness, 0: none given

void main() {
  ObjectGpu obj = objects[in_object];
  vec4 world = obj.model * vec4(in_position, 1.0);
  // Normals by the cofactor matrix, det(M) inverse(M)^T: perpendicular to the surface under any
  // invertible transform, non-uniform scale included (the fragment shader renormalizes and faces
  // them towards the eye, so det's sign does not matter).
  mat3 m = mat3(obj.model);
  mat3 cofactor = mat3(cross(m[1], m[2]), cross(m[2], m[0]), cross(m[0], m[1]));
  out_world_position = world.xyz;
  out_world_normal = cofactor * in_normal;
  out_object = in_object;
  out_uv0 = in_uv0;
  out_uv1 = in_uv1;
  out_world_tangent = vec4(m * in_tangent.xyz, in_tangent.w);  // tangents move with the surface
  // Current and previous use the same expression shape so that identical
  // matrices give bit-identical results (exactly zero motion when static).
  out_clip = camera.view_proj * world;
  out_prev_clip = camera.prev_view_proj * (obj.prev_model * vec4(in_position, 1.0));
  gl_Position = camera.view_proj_jittered * world;
}
