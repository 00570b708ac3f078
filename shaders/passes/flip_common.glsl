#ifndef FLIP_COMMON_GLSL
#define FLIP_COMMON_GLSL
#include "passes/passes_config.h"
// FLIP's colour spaces, as common/flip.cpp defines them (the reference implementation's matrices:
// linear RGB <-> XYZ under D65, YCxCz and Hunt-adjusted L*a*b* against the XYZ of RGB (1, 1, 1)).
// GLSL matrices are column-major: each vec3 below is a column.
const mat3 kRgbToXyz = mat3(vec3(10135552.0 / 24577794.0, 2613072.0 / 12288897.0, 1425312.0 / 73733382.0),
                            vec3(8788810.0 / 24577794.0, 8788810.0 / 12288897.0, 8788810.0 / 73733382.0),
                            vec3(4435075.0 / 24577794.0, 887015.0 / 12288897.0, 70074185.0 / 73733382.0));
const mat3 kXyzToRgb = mat3(vec3(3.241003275, -0.969224334, 0.055639423),
                            vec3(-1.537398934, 1.875930071, -0.204011202),
                            vec3(-0.498615861, 0.041554224, 1.057148933));
const vec3 kWhite = vec3(23359437.0 / 24577794.0, 1.0, 80288307.0 / 73733382.0);

layout(push_constant) uniform Push {
  FlipPush push;
};

// Every value these make is `precise`: the passes make the reference's and the test's through
// copies of the same code, and a compiler left free to fuse multiply-adds may fuse them differently
// in each copy; an image compared with itself would then differ by a few ulps (seen on NVIDIA's).
vec3 xyz_to_ycxcz(vec3 xyz) {
  precise const vec3 v = xyz / kWhite;
  precise const vec3 c = vec3(116.0 * v.y - 16.0, 500.0 * (v.x - v.y), 200.0 * (v.y - v.z));
  return c;
}

vec3 ycxcz_to_xyz(vec3 c) {
  precise const float y = (c.x + 16.0) / 116.0;
  precise const vec3 xyz = vec3(y + c.y / 500.0, y, y - c.z / 200.0) * kWhite;
  return xyz;
}

vec3 rgb_to_xyz(vec3 rgb) {
  precise const vec3 xyz = kRgbToXyz * rgb;
  return xyz;
}

vec3 xyz_to_rgb(vec3 xyz) {
  precise const vec3 rgb = kXyzToRgb * xyz;
  return rgb;
}

float lab_f(float t) {
  const float delta = 6.0 / 29.0;
  precise const float f = t > delta * delta * delta ? pow(t, 1.0 / 3.0) : t / (3.0 * delta * delta) + 4.0 / 29.0;
  return f;
}

// L*a*b* with the Hunt adjustment: a and b scaled by L / 100.
vec3 hunt_lab(vec3 xyz) {
  precise const vec3 v = xyz / kWhite;
  const float fx = lab_f(v.x), fy = lab_f(v.y), fz = lab_f(v.z);
  precise const float l = 116.0 * fy - 16.0;
  precise const vec3 lab = vec3(l, 0.01 * l * 500.0 * (fx - fy), 0.01 * l * 200.0 * (fy - fz));
  return lab;
}

#endif
