// TAA's resolve (Karis 2014, Salvi 2016): reproject the history by the motion of the closest
// pixel of the 3x3 neighbourhood, sample it with Catmull-Rom (or bilinear), reject it off screen
// and where the camera says it is invalid (first frame, resize, cut), rectify it against the
// current neighbourhood's statistics (none, min/max clamp, clip toward the box's centre, or
// variance clipping to mean +- gamma stddev, toward the mean; in RGB or YCoCg) and blend it with
// the current colour, feedback between FEEDBACK_MIN and FEEDBACK_MAX, each weighted by
// 1 / (1 + luma) so that fireflies do not dominate.
//
// The statistics are the variance family's window sums (filters/common/window_statistics.glsl),
// computed inside this pass by the method's driver: the fetch loop (TAA_STATS_LOOP) or the quad
// exchange (QUAD_* modes, filters/common/window_sums.glsl), or from a tile of colour and depth the
// workgroup stages in shared memory (TAA_SHARED: every texel fetched about 1.27 times rather than 9
// times for the statistics and 9 for the closest depth). Everything else is shared, so the exact
// methods give the same output within rounding.
#ifndef FILTERLAB_TAA_RESOLVE_GLSL
#define FILTERLAB_TAA_RESOLVE_GLSL
#extension GL_GOOGLE_include_directive : require
#define ACC_VEC4S 2
#include "filters/common/window.glsl"
#include "filters/taa/taa_config.h"
#include "filters/common/window_statistics.glsl"

layout(set = 0, binding = BINDING_DEPTH) uniform sampler2D depth;

#if defined(TAA_SHARED)
// The group's TAA_SHARED_GROUP^2 pixels and a one-texel apron: the 3x3 windows' colour and depth.
#define WINDOW_READ
const int TILE_SIDE = TAA_SHARED_GROUP + 2;
// Shared memory is carved out of the L1 that caches the history's taps: the smaller the tile, the
// faster the resolve (a second vec4 tile of the colour in window space measured slower, more so
// without the Catmull-Rom; docs/families/taa-tried.md). The fp16 variants keep the colour
// as packed halves (TILE_HALF): the scene's colour is RGBA16F, so nothing is lost there, and an
// fp32 input loses no more than the fp16 output's own rounding.
#if defined(TILE_HALF)
shared uvec2 colour_tile[TILE_SIDE * TILE_SIDE];
uvec2 tile_pack(vec4 c) { return uvec2(packHalf2x16(c.xy), packHalf2x16(c.zw)); }
vec4 tile_unpack(uvec2 h) { return vec4(unpackHalf2x16(h.x), unpackHalf2x16(h.y)); }
#else
shared vec4 colour_tile[TILE_SIDE * TILE_SIDE];
vec4 tile_pack(vec4 c) { return c; }
vec4 tile_unpack(vec4 c) { return c; }
#endif
shared float depth_tile[TILE_SIDE * TILE_SIDE];
ivec2 tile_origin() { return ivec2(gl_WorkGroupID.xy) * TAA_SHARED_GROUP - 1; }

void stage_tile() {
  const ivec2 size = textureSize(source, 0);
  for (int i = int(gl_LocalInvocationIndex); i < TILE_SIDE * TILE_SIDE; i += TAA_SHARED_GROUP * TAA_SHARED_GROUP) {
    const ivec2 q = clamp(tile_origin() + ivec2(i % TILE_SIDE, i / TILE_SIDE), ivec2(0), size - 1);
    colour_tile[i] = tile_pack(texelFetch(source, q, 0));
    depth_tile[i] = texelFetch(depth, q, 0).r;
  }
  barrier();
}

int tile_index(ivec2 p) {
  const ivec2 t = p - tile_origin();
  return t.y * TILE_SIDE + t.x;
}
vec4 current_colour(ivec2 p) { return tile_unpack(colour_tile[tile_index(p)]); }
float depth_at(ivec2 p) { return depth_tile[tile_index(p)]; }
vec4 window_read(ivec2 p) { return window_value(tile_unpack(colour_tile[tile_index(p)])); }
#else
vec4 current_colour(ivec2 p) { return texel_clamped(p); }
float depth_at(ivec2 p) { return texelFetch(depth, clamp(p, ivec2(0), textureSize(depth, 0) - 1), 0).r; }
#endif
#include "filters/common/window_sums.glsl"

layout(constant_id = TAA_RECTIFY_ID) const int RECTIFY = TAA_VARIANCE;
layout(constant_id = TAA_HISTORY_FILTER_ID) const int HISTORY_FILTER = TAA_CATMULL_ROM;
layout(constant_id = TAA_GAMMA_ID) const float GAMMA = 1.0;
layout(constant_id = TAA_FEEDBACK_MIN_ID) const float FEEDBACK_MIN = 0.88;
layout(constant_id = TAA_FEEDBACK_MAX_ID) const float FEEDBACK_MAX = 0.97;

layout(set = 0, binding = BINDING_MOTION) uniform sampler2D motion;
layout(set = 0, binding = BINDING_HISTORY) uniform sampler2D history;  // bilinear
layout(push_constant) uniform Camera { FilterCamera camera; };

vec3 from_space(vec3 c) {
  if (SPACE != WINDOW_SPACE_YCOCG) return c;
  return vec3(c.x + c.y - c.z, c.x + c.z, c.x - c.y - c.z);  // the inverse of window_value's YCoCg
}

float luma(vec3 rgb) { return dot(rgb, vec3(0.2126, 0.7152, 0.0722)); }

// Catmull-Rom at `at` (pixels, texel centres at i + 0.5) from 9 bilinear taps (the middle two
// weights of each axis merge into one bilinear fetch between them), or 5 without the corners.
vec4 catmull_rom(vec2 at) {
  const vec2 size = vec2(textureSize(history, 0));
  const vec2 t1 = floor(at - 0.5) + 0.5, f = at - t1;
  const vec2 w0 = f * (-0.5 + f * (1.0 - 0.5 * f));
  const vec2 w1 = 1.0 + f * f * (-2.5 + 1.5 * f);
  const vec2 w2 = f * (0.5 + f * (2.0 - 1.5 * f));
  const vec2 w3 = f * f * (-0.5 + 0.5 * f);
  const vec2 w12 = w1 + w2;
  const vec2 p0 = (t1 - 1.0) / size, p12 = (t1 + w2 / w12) / size, p3 = (t1 + 2.0) / size;
  vec4 sum = vec4(0.0);
  sum += textureLod(history, vec2(p12.x, p0.y), 0) * w12.x * w0.y;
  sum += textureLod(history, vec2(p0.x, p12.y), 0) * w0.x * w12.y;
  sum += textureLod(history, vec2(p12.x, p12.y), 0) * w12.x * w12.y;
  sum += textureLod(history, vec2(p3.x, p12.y), 0) * w3.x * w12.y;
  sum += textureLod(history, vec2(p12.x, p3.y), 0) * w12.x * w3.y;
  if (HISTORY_FILTER == TAA_CATMULL_ROM) {
    sum += textureLod(history, vec2(p0.x, p0.y), 0) * w0.x * w0.y;
    sum += textureLod(history, vec2(p3.x, p0.y), 0) * w3.x * w0.y;
    sum += textureLod(history, vec2(p0.x, p3.y), 0) * w0.x * w3.y;
    sum += textureLod(history, vec2(p3.x, p3.y), 0) * w3.x * w3.y;
  } else {
    // Five taps (Jimenez): the corners' weights are products of two small lobes; leave them out and
    // renormalize.
    const float kept = w12.x * (w0.y + w12.y + w3.y) + (w0.x + w3.x) * w12.y;
    sum /= kept;
  }
  return max(sum, vec4(0.0));  // its negative lobes ring below 0 at edges
}

// h clipped toward `centre` onto the box centre +- extent (colour channels; alpha follows).
vec4 clip_toward(vec4 h, vec4 centre, vec4 extent) {
  const vec3 v = h.rgb - centre.rgb;
  const vec3 u = abs(v) / max(extent.rgb, vec3(1e-6));
  const float m = max(u.x, max(u.y, u.z));
  return m > 1.0 ? centre + (h - centre) / m : h;
}

// What the views show (views=on): the history as blended (reprojected and rectified), and the
// rejection mask: red where no history was used (invalid, off screen), green how far the
// rectification moved it (luminance, clamped to 1).
struct Views {
  vec4 history, mask;
};

// Where p's centre was in the previous frame: moved back by the motion of the closest pixel of its
// 3x3 (depth 0 is near), so that edges keep their history. Nine fetches (four textureGathers
// measured slower on the H100, docs/families/taa-tried.md), or nine reads of the shared tile.
vec2 reprojected(ivec2 p) {
  ivec2 closest = p;
  float nearest = 2.0;
  for (int y = -1; y <= 1; ++y)
    for (int x = -1; x <= 1; ++x) {
      const float z = depth_at(p + ivec2(x, y));
      if (z < nearest) {
        nearest = z;
        closest = p + ivec2(x, y);
      }
    }
  closest = clamp(closest, ivec2(0), textureSize(source, 0) - 1);
  return vec2(p) + 0.5 - texelFetch(motion, closest, 0).xy;
}

bool off_screen(vec2 at) { return any(lessThan(at, vec2(0.0))) || any(greaterThan(at, vec2(textureSize(source, 0)))); }

// The history at `at`: Catmull-Rom or bilinear (clamped to the edge). The history is the size of
// the source.
vec4 history_at(vec2 at) {
  return HISTORY_FILTER == TAA_BILINEAR ? textureLod(history, at / vec2(textureSize(source, 0)), 0) : catmull_rom(at);
}

// Which goes first: the history's taps or the statistics (which every pixel of a quad computes
// together, in uniform control flow). Taps first, their trip to memory overlaps the statistics'
// arithmetic. From the shared tile with Catmull-Rom taps and variance clipping (the defaults) that
// measured faster on the H100, and the resolve needed fewer registers. With a bilinear history,
// the min/max clamp or no statistics, and for the quad methods and the fetch loop, taps first
// measured slower, so there the statistics go first, as before (docs/families/taa-tried.md).
#if defined(TAA_SHARED)
const bool TAPS_FIRST = RECTIFY == TAA_VARIANCE && HISTORY_FILTER != TAA_BILINEAR;
#else
const bool TAPS_FIRST = false;
#endif

// The resolved colour at p, from the window sums of p's neighbourhood (window_value space) and the
// history: h, sampled at `at` before the statistics (TAPS_FIRST), or sampled here.
vec4 resolve(ivec2 p, Acc stats, vec4 centre, vec4 anchor, vec2 at, vec4 h, out Views views) {
  const vec4 current = current_colour(p);
  views.history = current;
  views.mask = vec4(1.0, 0.0, 0.0, 1.0);
  if (camera.history_invalid != 0u) return current;
  if (!TAPS_FIRST) at = reprojected(p);
  if (off_screen(at)) return current;
  if (!TAPS_FIRST) h = history_at(at);
  const float reprojected_luma = luma(h.rgb);
  if (RECTIFY != TAA_NONE) {
    h = window_value(h);
    if (RECTIFY == TAA_CLAMP) {
      h = clamp(h, stats.v[0], stats.v[1]);
    } else if (RECTIFY == TAA_CLIP) {
      h = clip_toward(h, 0.5 * (stats.v[0] + stats.v[1]), 0.5 * (stats.v[1] - stats.v[0]));
    } else {
      const vec4 mean = window_result(stats, 0, centre, anchor), sd = window_result(stats, 1, centre, anchor);
      h = clip_toward(h, mean, GAMMA * sd);
    }
    h = vec4(from_space(h.xyz), h.w);
  }
  views.history = h;
  views.mask = vec4(0.0, min(abs(luma(h.rgb) - reprojected_luma), 1.0), 0.0, 1.0);
  // Feedback: high where the history agrees with the current luminance, lower where it does not.
  const float lc = luma(current.rgb), lh = luma(h.rgb);
  const float agree = 1.0 - abs(lc - lh) / max(max(lc, lh), 0.2);
  const float feedback = mix(FEEDBACK_MIN, FEEDBACK_MAX, agree * agree);
  const float wc = (1.0 - feedback) / (1.0 + lc), wh = feedback / (1.0 + lh);
  return (wc * current + wh * h) / (wc + wh);
}

vec4 taa(ivec2 p, out Views views) {
  const bool sample_first = TAPS_FIRST && camera.history_invalid == 0u;
  const vec2 at = sample_first ? reprojected(p) : vec2(-1.0);
  const vec4 h = sample_first ? history_at(at) : vec4(0.0);
  const vec4 centre = window_read(p), anchor = window_read(quad_anchor(p));
  Acc stats = acc_empty(centre);
  if (RECTIFY != TAA_NONE) {
#if defined(WINDOW_QUAD)
    stats = quad_sum(p, centre, anchor);
#else
    stats = window_sum(p, centre, anchor);
#endif
  }
  return resolve(p, stats, centre, anchor, at, h, views);
}

#endif
