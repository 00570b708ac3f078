#version 460
#extension GL_GOOGLE_include_directive : require
#include "scene_common.glsl"

layout(location = 0) in vec3 in_world_position;
layout(location = 1) in vec3 in_world_normal;
layout(location = 2) flat in uint in_object;
layout(location = 3) in vec4 in_clip;
layout(location = 4) in vec4 in_prev_clip;
layout(location = 5) in vec2 in_uv0;
layout(location = 6) in vec2 in_uv1;
layout(location = 7) in vec4 in_world_tangent;

layout(set = 0, binding = BINDING_SCENE_TEXTURES + SLOT_BASE_COLOR) uniform sampler2D base_color_texture;
layout(set = 0, binding = BINDING_SCENE_TEXTURES + SLOT_METALLIC_ROUGHNESS) uniform sampler2D metallic_roughness_texture;
layout(set = 0, binding = BINDING_SCENE_TEXTURES + SLOT_NORMAL) uniform sampler2D normal_texture;
layout(set = 0, binding = BINDING_SCENE_TEXTURES + SLOT_OCCLUSION) uniform sampler2D occlusion_texture;
layout(set = 0, binding = BINDING_SCENE_TEXTURES + SLOT_EMISSIVE) uniform sampler2D emissive_texture;

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

// The material's texture coordinates for a slot: its set, through KHR_texture_transform.
vec2 slot_uv(uint slot) {
  vec4 row0 = material.uv_transform[2 * slot], row1 = material.uv_transform[2 * slot + 1];
  vec3 uv = vec3(row0.w > 0.5 ? in_uv1 : in_uv0, 1.0);
  return vec2(dot(row0.xyz, uv), dot(row1.xyz, uv));
}

// A slot's texel, or 1 where the material has no texture there (the factors alone). The material is
// the draw's, so the branch is uniform and the implicit derivatives are defined.
vec4 slot_sample(uint slot, sampler2D t) {
  return (material.flags.y & (1u << slot)) != 0u ? texture(t, slot_uv(slot)) : vec4(1.0);
}

// Towards the light, and the light's radiance arriving here: the built-in sun where the scene has
// no lights, else KHR_lights_punctual's (inverse square falloff times 1 - (d / range)^4; spot cones
// eased in squared, as the extension suggests).
vec3 light_radiance(uint i, vec3 p, out vec3 l) {
  if (camera.counts.x == 0u) {
    l = camera.sun_direction.xyz;
    return vec3(camera.sun_direction.w);
  }
  LightGpu light = lights[i];
  uint type = uint(light.direction_type.w + 0.5);
  vec3 radiance = light.color_intensity.rgb * light.color_intensity.w;
  if (type == LIGHT_DIRECTIONAL) {
    l = -light.direction_type.xyz;
    return radiance;
  }
  vec3 to_light = light.position_range.xyz - p;
  float d2 = max(dot(to_light, to_light), 1e-8);
  l = to_light * inversesqrt(d2);
  float attenuation = 1.0 / d2;
  float range = light.position_range.w;
  if (range > 0.0) {
    float x = d2 / (range * range);  // (d / range)^2
    attenuation *= clamp(1.0 - x * x, 0.0, 1.0);
  }
  if (type == LIGHT_SPOT) {
    float t = clamp((dot(light.direction_type.xyz, -l) - light.cone.x) / max(light.cone.y - light.cone.x, 1e-4),
                    0.0, 1.0);
    attenuation *= t * t;
  }
  return radiance * attenuation;
}

// GGX + Lambert under each light, with a sky-ish ambient term (metals reflect it with their F0).
// With metallic 0 and no occlusion this is the built-in scene's shading, term for term.
vec3 shade_lit(vec3 base, float metallic, float roughness, float occlusion, vec3 n, vec3 v, vec3 p) {
  vec3 diffuse = base * (1.0 - metallic);
  vec3 f0 = mix(vec3(0.04), base, metallic);
  float a = max(roughness * roughness, 0.0025);
  float a2 = a * a;
  float n_v = max(dot(n, v), 1e-4);
  vec3 ambient = mix(diffuse, f0, metallic) * mix(vec3(0.12, 0.11, 0.1), vec3(0.15, 0.17, 0.22), n.y * 0.5 + 0.5);
  vec3 color = ambient * occlusion;
  uint count = max(camera.counts.x, 1u);
  for (uint i = 0u; i < count; ++i) {
    vec3 l;
    vec3 radiance = light_radiance(i, p, l);
    vec3 h = normalize(l + v);
    float n_l = max(dot(n, l), 0.0);
    float n_h = max(dot(n, h), 0.0);
    float v_h = clamp(dot(v, h), 0.0, 1.0);  // pow() of a negative base is undefined (NaN): l = v gives dot > 1
    float dd = n_h * n_h * (a2 - 1.0) + 1.0;
    float d = a2 / (PI * dd * dd);
    float vis = 0.5 / (n_l * sqrt(n_v * n_v * (1.0 - a2) + a2) + n_v * sqrt(n_l * n_l * (1.0 - a2) + a2) + 1e-6);
    vec3 f = f0 + (1.0 - f0) * pow(1.0 - v_h, 5.0);
    color += (diffuse / PI + d * vis * f) * radiance * n_l;
  }
  return color;
}

// The shading normal: the normal map's, in the vertex tangent frame where the file gives tangents,
// else in a frame from the texture coordinates' screen derivatives (a cotangent frame).
vec3 mapped_normal(vec3 n) {
  vec3 t = slot_sample(SLOT_NORMAL, normal_texture).xyz * 2.0 - 1.0;
  t.xy *= material.params.z;
  vec3 tangent, bitangent;
  if (in_world_tangent.w != 0.0) {
    tangent = normalize(in_world_tangent.xyz - n * dot(n, in_world_tangent.xyz));
    bitangent = cross(n, tangent) * in_world_tangent.w;
  } else {
    vec2 uv = slot_uv(SLOT_NORMAL);
    vec3 dp_dx = dFdx(in_world_position), dp_dy = dFdy(in_world_position);
    vec2 duv_dx = dFdx(uv), duv_dy = dFdy(uv);
    vec3 dp_dy_perp = cross(dp_dy, n), dp_dx_perp = cross(n, dp_dx);
    tangent = dp_dy_perp * duv_dx.x + dp_dx_perp * duv_dy.x;
    bitangent = dp_dy_perp * duv_dx.y + dp_dx_perp * duv_dy.y;
    float scale = inversesqrt(max(max(dot(tangent, tangent), dot(bitangent, bitangent)), 1e-30));
    tangent *= scale;
    bitangent *= scale;
  }
  return normalize(tangent * t.x + bitangent * t.y + n * t.z);
}

void main() {
  ObjectGpu obj = objects[in_object];
  uint kind = uint(obj.emissive_kind.w + 0.5);
  vec3 v = normalize(camera.camera_position.xyz - in_world_position);
  vec3 n = normalize(in_world_normal);
  if (dot(n, v) < 0.0) n = -n;  // culling is off: shade back faces like front faces

  // Every texture is read before any fragment is discarded, so the derivatives stay defined.
  vec4 base = material.base_color * slot_sample(SLOT_BASE_COLOR, base_color_texture);
  vec4 metallic_roughness = slot_sample(SLOT_METALLIC_ROUGHNESS, metallic_roughness_texture);
  float occlusion = 1.0 + material.params.w * (slot_sample(SLOT_OCCLUSION, occlusion_texture).r - 1.0);
  vec3 emissive = material.emissive.rgb * slot_sample(SLOT_EMISSIVE, emissive_texture).rgb;
  if ((material.flags.y & (1u << SLOT_NORMAL)) != 0u) n = mapped_normal(n);

  vec3 color;
  if (kind == KIND_SKY) {
    color = sky_radiance(-v);
  } else if (kind == KIND_EMISSIVE) {
    color = obj.emissive_kind.rgb;
  } else {
    vec3 albedo = (kind == KIND_CHECKER_FLOOR ? floor_albedo(in_world_position) : obj.albedo_roughness.rgb) * base.rgb;
    float roughness = obj.albedo_roughness.a * material.params.y * metallic_roughness.g;
    float metallic = material.params.x * metallic_roughness.b;
    color = shade_lit(albedo, metallic, roughness, occlusion, n, v, in_world_position) + obj.emissive_kind.rgb +
            emissive;
  }
  uint alpha_mode = material.flags.x;
  if (alpha_mode == ALPHA_MASK && base.a < material.alpha.x) discard;
  out_color = vec4(color, alpha_mode == ALPHA_BLEND ? base.a : 1.0);

  // Unjittered NDC difference; Vulkan NDC +y is framebuffer-down, as wanted.
  vec2 ndc = in_clip.xy / in_clip.w;
  vec2 prev_ndc = in_prev_clip.xy / in_prev_clip.w;
  out_motion = (ndc - prev_ndc) * 0.5 * camera.viewport_jitter.xy;
}
