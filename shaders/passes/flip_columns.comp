#version 460
#extension GL_GOOGLE_include_directive : require
#include "flip_common.glsl"
// FLIP, step 2 of 2 (passes_config.h): the rows' results filtered down the columns (the edge rows
// replicated), FLIP_COLUMN_ROWS pixels a thread, and per pixel, as common/flip.cpp: the filtered YCxCz back to linear RGB clamped to
// [0, 1], Hunt-adjusted L*a*b*, HyAB^0.7 remapped against cmax (pc 0.4, pt 0.95); the edge and
// point responses' largest difference, / sqrt(2), ^0.5; FLIP = colour ^ (1 - features). Where an
// earlier exposure wrote the map (HDR-FLIP), the larger of the two.
layout(local_size_x = FLIP_COLUMN_GROUP_X, local_size_y = FLIP_COLUMN_GROUP_Y) in;
layout(constant_id = FLIP_RADIUS_ID) const int kRadius = 10;
layout(constant_id = FLIP_ACCUMULATE_ID) const int kAccumulate = 0;
// Tap t of the columns (after the rows' 2 (2 kRadius + 1)): kernels[2t] = (Y's, Cx's, Cz's first
// and second Gaussian, each with its weight in the CSF's sum and the 2D normalization),
// kernels[2t + 1] = (G, G', G, G''): x-derivatives take G down the column, y-derivatives G' or G''.
layout(set = 0, binding = BINDING_FLIP_KERNELS, std430) readonly buffer Kernels { vec4 kernels[]; };
layout(set = 0, binding = BINDING_FLIP_REFERENCE_COLOUR, std430) readonly buffer RC { vec4 reference_colour[]; };
layout(set = 0, binding = BINDING_FLIP_REFERENCE_FEATURES, std430) readonly buffer RF { vec4 reference_features[]; };
layout(set = 0, binding = BINDING_FLIP_TEST_COLOUR, std430) readonly buffer TC { vec4 test_colour[]; };
layout(set = 0, binding = BINDING_FLIP_TEST_FEATURES, std430) readonly buffer TF { vec4 test_features[]; };
layout(set = 0, binding = BINDING_FLIP_MAP, r32f) uniform image2D flip_map;
layout(set = 0, binding = BINDING_FLIP_EXPOSURES, std430) readonly buffer Exposures { FlipExposuresGpu exposures; };

struct Perceived {
  vec3 lab;
  float edge, point;
};

// `precise`: the reference's and the test's values made alike (flip_rows.comp says why).
Perceived perceived(vec4 colour, vec4 features) {
  precise const vec3 rgb = clamp(xyz_to_rgb(ycxcz_to_xyz(vec3(colour.xy, colour.z + colour.w))), 0.0, 1.0);
  precise const vec3 lab = hunt_lab(rgb_to_xyz(rgb));
  precise const float edge = length(features.xy), point = length(features.zw);
  return Perceived(lab, edge, point);
}

float hyab(vec3 a, vec3 b) {
  return abs(a.x - b.x) + length(a.yz - b.yz);
}

// The largest FLIP over the exposures so far where an earlier exposure wrote the map.
void write_flip(ivec2 p, vec4 colour_r, vec4 features_r, vec4 colour_t, vec4 features_t) {
  const Perceived r = perceived(colour_r, features_r), t = perceived(colour_t, features_t);
  const float qc = 0.7, pc = 0.4, pt = 0.95, qf = 0.5;
  const float cmax = push.cmax;
  const float d = pow(hyab(r.lab, t.lab), qc);
  const float colour = d < pc * cmax ? pt / (pc * cmax) * d : pt + (d - pc * cmax) / (cmax - pc * cmax) * (1.0 - pt);
  const float feature = pow(max(abs(r.edge - t.edge), abs(r.point - t.point)) / sqrt(2.0), qf);
  float flip = pow(colour, 1.0 - feature);
  if (kAccumulate != 0) flip = max(flip, imageLoad(flip_map, p).r);
  imageStore(flip_map, p, vec4(flip));
}

const int kTaps = 2 * kRadius + 1;
shared vec4 taps[2 * kTaps];

void main() {
  const ivec2 size = imageSize(flip_map);
  for (uint i = gl_LocalInvocationIndex; i < 2 * kTaps; i += FLIP_COLUMN_GROUP_X * FLIP_COLUMN_GROUP_Y)
    taps[i] = kernels[2 * kTaps + i];  // the columns' (the rows' come first)
  barrier();
  // FLIP_COLUMN_ROWS pixels a thread, one above the other: each row loaded serves all of them.
  const ivec2 first = ivec2(gl_GlobalInvocationID.x, gl_GlobalInvocationID.y * FLIP_COLUMN_ROWS);
  if (any(greaterThanEqual(first, size))) return;
  if (push.source == FLIP_INPUT_HDR) {
    const uint count = exposures.count;
    if (push.exposure >= max(count, 1u)) return;  // past the frame's exposures
    if (count == 0u) {  // the reference has no exposure range: no FLIP (the host says so)
      for (int k = 0; k < FLIP_COLUMN_ROWS && first.y + k < size.y; ++k) imageStore(flip_map, first + ivec2(0, k), vec4(0.0));
      return;
    }
  }
  precise vec4 colour_r[FLIP_COLUMN_ROWS], features_r[FLIP_COLUMN_ROWS], colour_t[FLIP_COLUMN_ROWS],
      features_t[FLIP_COLUMN_ROWS];
  for (int k = 0; k < FLIP_COLUMN_ROWS; ++k)
    colour_r[k] = vec4(0.0), features_r[k] = vec4(0.0), colour_t[k] = vec4(0.0), features_t[k] = vec4(0.0);
  for (int i = 0; i < 2 * kRadius + FLIP_COLUMN_ROWS; ++i) {
    const uint q = uint(clamp(first.y - kRadius + i, 0, size.y - 1)) * uint(size.x) + uint(first.x);
    const vec4 cr = reference_colour[q], fr = reference_features[q].yxzx;
    const vec4 ct = test_colour[q], ft = test_features[q].yxzx;
    for (int k = 0; k < FLIP_COLUMN_ROWS; ++k) {
      const int t = i - k;  // the tap this row is for pixel k
      if (t < 0 || t >= kTaps) continue;
      const vec4 kc = taps[2 * t], kf = taps[2 * t + 1];
      colour_r[k] = fma(kc, cr, colour_r[k]);  // fma(): one rounding, the same for both images
      features_r[k] = fma(kf, fr, features_r[k]);
      colour_t[k] = fma(kc, ct, colour_t[k]);
      features_t[k] = fma(kf, ft, features_t[k]);
    }
  }
  for (int k = 0; k < FLIP_COLUMN_ROWS && first.y + k < size.y; ++k)
    write_flip(first + ivec2(0, k), colour_r[k], features_r[k], colour_t[k], features_t[k]);
}
