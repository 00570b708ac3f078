#version 460
#extension GL_GOOGLE_include_directive : require
#include "scene_common.glsl"

layout(location = 0) in vec3 in_world_position;
layout(location = 1) in vec3 in_world_normal;
layout(location = 2) flat in uint in_object;
layout(location = 3) in vec4 in_clip;
layout(location = 4) in vec4 in_prev_clip;

layout(location = 0) out vec4 out_color;   // HDR linear radiance (RGBA16F)
layout(location = 1) out vec2 out_motion;  // pixels moved since last frame (RG16F)

const float PI = 3.14159265358979;

vec3 sky_radiance(vec3 dir) {
  vec3 sun = camera.sun_direction.xyz;
  float up = dir.y;
  vec3 horizon = vec3(1.4, 1.5, 1.65);
  vec3 zenith = vec3(0.35, 0.6, 1.3);
  vec3 ground = vec3(0.45, 0.42, 0.4);
  vec3 sky = up >= 0.0 ? mix(horizon, zenith, sqrt(up)) : mix(horizon, ground, sqrt(-up));
  float cos_sun = dot(dir, sun);
  // Soft halo around the sun plus a hard disc (~0.55 deg radius) far above 10,
  // so the sun is a tiny, very bright feature with a hard edge.
  sky += vec3(1.0, 0.8, 0.5) * 0.6 * pow(max(cos_sun, 0.0), 64.0);
  if (cos_sun > 0.99995) sky += vec3(60.0, 55.0, 45.0);
  return sky;
}

// Checker of 1 m squares plus 1 cm grid lines every 0.25 m. The lines are
// deliberately computed without any filtering so they alias without AA.
vec3 floor_albedo(vec3 p) {
  vec2 cell = floor(p.xz);
  bool odd = mod(cell.x + cell.y, 2.0) >= 1.0;
  vec3 albedo = odd ? vec3(0.8) : vec3(0.25);
  vec2 f = fract(p.xz / 0.25);
  vec2 d = min(f, 1.0 - f) * 0.25;  // distance to nearest line, metres
  if (min(d.x, d.y) < 0.005) albedo = vec3(0.02);
  return albedo;
}

// Sun-lit GGX + Lambert, with a sky-ish ambient term.
vec3 shade_lit(vec3 albedo, float roughness, vec3 n, vec3 v) {
  vec3 l = camera.sun_direction.xyz;
  float sun = camera.sun_direction.w;
  vec3 h = normalize(l + v);
  float n_l = max(dot(n, l), 0.0);
  float n_v = max(dot(n, v), 1e-4);
  float n_h = max(dot(n, h), 0.0);
  float v_h = max(dot(v, h), 0.0);
  float a = max(roughness * roughness, 0.0025);
  float a2 = a * a;
  float dd = n_h * n_h * (a2 - 1.0) + 1.0;
  float d = a2 / (PI * dd * dd);
  float vis = 0.5 / (n_l * sqrt(n_v * n_v * (1.0 - a2) + a2) + n_v * sqrt(n_l * n_l * (1.0 - a2) + a2) + 1e-6);
  float f = 0.04 + 0.96 * pow(1.0 - v_h, 5.0);
  vec3 ambient = albedo * mix(vec3(0.12, 0.11, 0.1), vec3(0.15, 0.17, 0.22), n.y * 0.5 + 0.5);
  return ambient + (albedo / PI + vec3(d * vis * f)) * sun * n_l;
}

void main() {
  ObjectGpu obj = objects[in_object];
  uint kind = uint(obj.emissive_kind.w + 0.5);
  vec3 v = normalize(camera.camera_position.xyz - in_world_position);
  vec3 n = normalize(in_world_normal);
  if (dot(n, v) < 0.0) n = -n;  // culling is off: shade back faces like front faces

  vec3 color;
  if (kind == KIND_SKY) {
    color = sky_radiance(-v);
  } else if (kind == KIND_EMISSIVE) {
    color = obj.emissive_kind.rgb;
  } else {
    vec3 albedo = kind == KIND_CHECKER_FLOOR ? floor_albedo(in_world_position) : obj.albedo_roughness.rgb;
    color = shade_lit(albedo, obj.albedo_roughness.a, n, v) + obj.emissive_kind.rgb;  // 0 but for glTF's
  }
  out_color = vec4(color, 1.0);

  // Unjittered NDC difference; Vulkan NDC +y is framebuffer-down, as wanted.
  vec2 ndc = in_clip.xy / in_clip.w;
  vec2 prev_ndc = in_prev_clip.xy / in_prev_clip.w;
  out_motion = (ndc - prev_ndc) * 0.5 * camera.viewport_jitter.xy;
}
