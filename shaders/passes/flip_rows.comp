#version 460
#extension GL_GOOGLE_include_directive : require
#include "flip_common.glsl"
// FLIP, step 1 of 2 (passes_config.h): both images read as push.source says, turned into YCxCz
// (clamped to [0, 1] in linear RGB first, as FLIP does) and filtered along rows by the CSF's
// Gaussians and the features' G, G' and G'', the edge texels replicated. The kernels are the host's
// (double precision, renderer/passes/flip_pass.cpp), zero past each filter's own radius.
layout(local_size_x = FLIP_ROW_GROUP) in;
layout(constant_id = FLIP_RADIUS_ID) const int kRadius = 10;
layout(set = 0, binding = BINDING_FLIP_REFERENCE) uniform sampler2D reference;
layout(set = 0, binding = BINDING_FLIP_TEST) uniform sampler2D test;
// Tap t of the rows: kernels[2t] = (Y's, Cx's, Cz's first and second Gaussian), kernels[2t + 1] =
// (G, G', G'', 0); the columns' follow (flip_columns.comp).
layout(set = 0, binding = BINDING_FLIP_KERNELS, std430) readonly buffer Kernels { vec4 kernels[]; };
layout(set = 0, binding = BINDING_FLIP_REFERENCE_COLOUR, std430) writeonly buffer RC { vec4 reference_colour[]; };
layout(set = 0, binding = BINDING_FLIP_REFERENCE_FEATURES, std430) writeonly buffer RF { vec4 reference_features[]; };
layout(set = 0, binding = BINDING_FLIP_TEST_COLOUR, std430) writeonly buffer TC { vec4 test_colour[]; };
layout(set = 0, binding = BINDING_FLIP_TEST_FEATURES, std430) writeonly buffer TF { vec4 test_features[]; };
layout(set = 0, binding = BINDING_FLIP_EXPOSURES, std430) readonly buffer Exposures { FlipExposuresGpu exposures; };

const int kSpan = FLIP_ROW_GROUP + 2 * kRadius, kTaps = 2 * kRadius + 1;
// (Y, Cx, Cz, achromatic) of the group's texels and kRadius each side, of both images; the taps.
shared vec4 row_reference[kSpan], row_test[kSpan], taps[2 * kTaps];

float srgb_to_linear(float v) {
  precise const float linear = v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4);
  return linear;
}

// FLIP's ACES (Narkowicz's fit with 0.6 folded in), as common/flip.cpp.
vec3 aces(vec3 x) {
  const float a = 0.6 * 0.6 * 2.51, b = 0.6 * 0.03, c = 0.6 * 0.6 * 2.43, d = 0.6 * 0.59, e = 0.14;
  precise const vec3 y = (x * (a * x + b)) / (x * (c * x + d) + e);
  return y;
}

// `precise` everywhere a value of the reference and of the test is made (flip_common.glsl says why);
// the filters' multiply-adds are fma(): one rounding each, whatever the compiler.
vec4 prepared(vec3 rgb, float scale) {
  if (push.source == FLIP_INPUT_SRGB)
    rgb = vec3(srgb_to_linear(rgb.r), srgb_to_linear(rgb.g), srgb_to_linear(rgb.b));
  else if (push.source == FLIP_INPUT_HDR)
    rgb = aces(scale * rgb);
  precise const vec3 ycxcz = xyz_to_ycxcz(rgb_to_xyz(clamp(rgb, 0.0, 1.0)));
  precise const vec4 out_value = vec4(ycxcz, (ycxcz.x + 16.0) / 116.0);
  return out_value;
}

void main() {
  // HDR-FLIP: this pass's exposure, common::FlipExposures::at; none past the frame's count.
  float scale = 1.0;
  if (push.source == FLIP_INPUT_HDR) {
    const FlipExposuresGpu e = exposures;
    if (push.exposure >= e.count) return;
    scale = exp2(e.count < 2u ? e.start : e.start + (e.stop - e.start) * float(push.exposure) / float(e.count - 1u));
  }
  const ivec2 size = textureSize(reference, 0);
  const int first = int(gl_WorkGroupID.x) * FLIP_ROW_GROUP, y = int(gl_WorkGroupID.y);
  const int index = int(gl_LocalInvocationIndex);
  for (int i = index; i < 2 * kTaps; i += FLIP_ROW_GROUP) taps[i] = kernels[i];
  // The span is the group and 2 kRadius more: every fetch issued before the first conversion.
  const ivec2 p0 = ivec2(clamp(first - kRadius + index, 0, size.x - 1), y);
  const ivec2 p1 = ivec2(clamp(first - kRadius + FLIP_ROW_GROUP + index, 0, size.x - 1), y);
  const bool second = FLIP_ROW_GROUP + index < kSpan;
  const vec3 r0 = texelFetch(reference, p0, 0).rgb, t0 = texelFetch(test, p0, 0).rgb;
  vec3 r1 = vec3(0.0), t1 = vec3(0.0);
  if (second) r1 = texelFetch(reference, p1, 0).rgb, t1 = texelFetch(test, p1, 0).rgb;
  row_reference[index] = prepared(r0, scale);
  row_test[index] = prepared(t0, scale);
  if (second) {
    row_reference[FLIP_ROW_GROUP + index] = prepared(r1, scale);
    row_test[FLIP_ROW_GROUP + index] = prepared(t1, scale);
  }
  for (int i = 2 * FLIP_ROW_GROUP + index; i < kSpan; i += FLIP_ROW_GROUP) {  // a radius over the group
    const ivec2 p = ivec2(clamp(first - kRadius + i, 0, size.x - 1), y);
    row_reference[i] = prepared(texelFetch(reference, p, 0).rgb, scale);
    row_test[i] = prepared(texelFetch(test, p, 0).rgb, scale);
  }
  barrier();
  const ivec2 p = ivec2(first + index, y);
  if (p.x >= size.x) return;
  precise vec4 colour_r = vec4(0.0), features_r = vec4(0.0), colour_t = vec4(0.0), features_t = vec4(0.0);
  for (int t = 0; t < kTaps; ++t) {
    const vec4 kc = taps[2 * t], kf = taps[2 * t + 1];
    const vec4 r = row_reference[index + t], s = row_test[index + t];
    colour_r = fma(kc, r.xyzz, colour_r);
    features_r = fma(kf, r.wwww, features_r);
    colour_t = fma(kc, s.xyzz, colour_t);
    features_t = fma(kf, s.wwww, features_t);
  }
  const uint at = uint(y) * uint(size.x) + uint(p.x);
  reference_colour[at] = colour_r;
  reference_features[at] = features_r;
  test_colour[at] = colour_t;
  test_features[at] = features_t;
}
