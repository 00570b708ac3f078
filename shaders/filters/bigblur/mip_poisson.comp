#version 460
// bigblur comp.mip_poisson's resolve (Chapman, "Prefiltering"): N points of a Poisson disk around the
// pixel, scaled to sigma and rotated per pixel, each read from the prefiltered level whose texels
// cover the sample's share of the disk, weighted by the Gaussian. Every sample has the same share,
// so every sample reads the same two levels, `fine` (level floor(lod); level 0 is the input) and
// `coarse` (the next), and blends them by fract(lod): a trilinear read as two bilinear taps. With
// footprint=level the lod is a whole number: one bilinear tap a sample, from the level nearest the
// footprint (ONE_LEVEL; the weights account for its spread: renderer/filters/bigblur/design.cpp). The disk, its
// offsets in pixels and weights summing to 1, is the family's buffer; SAMPLES its points.
//
// TEMPORAL (comp.mip_poisson_temporal): the noise moves every frame, and the results accumulate:
// last frame's accumulation, reprojected by this pixel's motion (bilinear), holds n frames (its
// alpha); the new one weighs 1 / (n + 1), at least 1 / BIGBLUR_MAX_FRAMES. None is used on the
// first frame, after a cut or a resize, or where the reprojection leaves the image. The accumulation
// never is halves: at n = 64 a half drops any change under 3% of the value, and the error grew with
// the frames instead of shrinking (docs/families/bigblur.md). In fp16 it is packed into 64 bits, a
// shared exponent and 17 bits a channel (PACKED_ACCUMULATION, packed_accumulation.glsl); in fp32 it
// is RGBA32F.
//! variant fp16 OUTPUT_FORMAT=rgba16f
//! variant fp32 OUTPUT_FORMAT=rgba32f
//! variant temporal.fp16 TEMPORAL PACKED_ACCUMULATION OUTPUT_FORMAT=rgba16f
//! variant temporal.fp32 TEMPORAL OUTPUT_FORMAT=rgba32f
//! variant level.fp16 ONE_LEVEL OUTPUT_FORMAT=rgba16f
//! variant level.fp32 ONE_LEVEL OUTPUT_FORMAT=rgba32f
//! variant temporal.level.fp16 TEMPORAL ONE_LEVEL PACKED_ACCUMULATION OUTPUT_FORMAT=rgba16f
//! variant temporal.level.fp32 TEMPORAL ONE_LEVEL OUTPUT_FORMAT=rgba32f
#extension GL_GOOGLE_include_directive : require
#include "filters/bigblur/bigblur_config.h"
#include "filters/common/noise.glsl"

layout(local_size_x = BIGBLUR_GROUP, local_size_y = BIGBLUR_GROUP) in;
layout(set = 0, binding = BINDING_SOURCE) uniform sampler2D fine;
#if !defined(ONE_LEVEL)
layout(set = 0, binding = BINDING_BIGBLUR_COARSE) uniform sampler2D coarse;
#endif
layout(set = 0, binding = BINDING_DESTINATION, OUTPUT_FORMAT) uniform writeonly image2D destination;
layout(set = 0, binding = BINDING_FAMILY_DATA, std430) readonly buffer Disk {
  vec4 disk[];  // x, y (pixels), weight, unused
};
layout(push_constant) uniform Push { PoissonPush push; };
layout(constant_id = BIGBLUR_SAMPLES_ID) const uint SAMPLES = 8;
#if defined(TEMPORAL)
layout(set = 0, binding = BINDING_MOTION) uniform sampler2D motion;
#if defined(PACKED_ACCUMULATION)
#include "filters/bigblur/packed_accumulation.glsl"
layout(set = 0, binding = BINDING_HISTORY) uniform usampler2D history;  // gathered, filtered here
layout(set = 0, binding = BINDING_BIGBLUR_ACCUMULATION, rg32ui) uniform writeonly uimage2D accumulation;
#else
layout(set = 0, binding = BINDING_HISTORY) uniform sampler2D history;  // bilinear
layout(set = 0, binding = BINDING_BIGBLUR_ACCUMULATION, rgba32f) uniform writeonly image2D accumulation;
#endif
#endif

void main() {
  const ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (any(greaterThanEqual(p, imageSize(destination)))) return;
  // One rotation per cell: a warp's reads of each disk point scatter over fewer angles.
  const ivec2 cell = p / int(push.cell);
  float angle = 0.0;
  if (push.rotation == BIGBLUR_ROTATION_IGN) angle = 6.28318531 * interleaved_gradient_noise(cell, push.frame);
  if (push.rotation == BIGBLUR_ROTATION_WHITE) angle = 6.28318531 * white_noise(cell, push.frame);
  const mat2 rotate = mat2(cos(angle), sin(angle), -sin(angle), cos(angle));
  const float level = floor(push.lod), t = push.lod - level;
  // Level-0 pixels to normalized coordinates of each level: texel i of level k covers 2^k i ..
  const vec2 to_fine = exp2(-level) / vec2(textureSize(fine, 0));
#if !defined(ONE_LEVEL)
  const vec2 to_coarse = exp2(-level - 1.0) / vec2(textureSize(coarse, 0));
#endif
  const vec2 centre = vec2(p) + 0.5;
  vec4 sum = vec4(0.0);
  for (uint i = 0; i < SAMPLES; ++i) {
    const vec2 at = centre + rotate * disk[i].xy;
#if defined(ONE_LEVEL)
    const vec4 v = textureLod(fine, at * to_fine, 0.0);
#else
    const vec4 v = mix(textureLod(fine, at * to_fine, 0.0), textureLod(coarse, at * to_coarse, 0.0), t);
#endif
    sum += disk[i].z * v;
  }
#if defined(TEMPORAL)
  const vec2 size = vec2(imageSize(destination)), was = vec2(p) + 0.5 - texelFetch(motion, p, 0).xy;
  float held = 0.0;
  vec3 before = sum.rgb;
  if (push.history_invalid == 0u && all(greaterThanEqual(was, vec2(0.0))) && all(lessThanEqual(was, size))) {
#if defined(PACKED_ACCUMULATION)
    const vec4 h = sample_accumulation(history, was);
#else
    const vec4 h = textureLod(history, was / size, 0.0);
#endif
    held = h.a;
    before = h.rgb;
  }
#if defined(PACKED_ACCUMULATION)
  // The count is stored whole: a reprojection between texels of different counts rounds it.
  const float frames = min(round(held) + 1.0, float(BIGBLUR_MAX_FRAMES));
  const vec3 blended = mix(before, sum.rgb, 1.0 / frames);
  imageStore(accumulation, p, uvec4(encode_accumulation(blended, uint(frames)), 0u, 0u));
#else
  const float frames = min(held + 1.0, float(BIGBLUR_MAX_FRAMES));
  const vec3 blended = mix(before, sum.rgb, 1.0 / frames);
  imageStore(accumulation, p, vec4(blended, frames));
#endif
  sum.rgb = blended;
#endif
  imageStore(destination, p, sum);
}
