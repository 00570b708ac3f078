#version 460
// bigblur's chains' down passes: each writes one level from the finer level before it
// (renderer/filters/bigblur/pyramid.cpp; the up passes are chain_up.comp, comp.mip_poisson's box
// levels shaders/passes/pyramid.comp). A level's texel i covers the texels 2i and 2i + 1 of the finer
// level (its size is rounded up: past the edge, clamp to edge), so in level-0 pixels, texel i of
// level k covers [2^k i, 2^k (i + 1)) whatever the sizes. Offsets below are in texels of the source.
// Every tap sits on a texel corner, so each is a 2x2 box mean from one filtered fetch. Outputs in a
// column share taps, so a thread makes ROWS outputs down a column and takes each tap once, adding
// them in the definition's order.
//   cod13      down: Jimenez 2014's 13 taps (four overlapping 2x2 boxes and a central one, each a
//              bilinear tap at a texel corner, weighted 1/2 centre, 1/8 each corner box): the outer
//              ones shared by three outputs, the inner by two, 5 + 8 / rows taps an output
//   dual_down  down: Bjorge 2015, a bilinear tap at the block's centre (weight 4/8) and at its four
//              diagonal corners (1/8 each), each corner shared by two outputs: 3 + 2 / rows taps
//! variant cod13.fp16 CHAIN_COD13 OUTPUT_FORMAT=rgba16f HALF_OUTPUT
//! variant cod13.fp32 CHAIN_COD13 OUTPUT_FORMAT=rgba32f
//! variant dual_down.fp16 CHAIN_DUAL_DOWN OUTPUT_FORMAT=rgba16f HALF_OUTPUT
//! variant dual_down.fp32 CHAIN_DUAL_DOWN OUTPUT_FORMAT=rgba32f
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#include "filters/bigblur/bigblur_config.h"

layout(local_size_x = BIGBLUR_GROUP, local_size_y = BIGBLUR_GROUP) in;
layout(set = 0, binding = BINDING_SOURCE) uniform sampler2D source;  // bilinear, clamp to edge
layout(set = 0, binding = BINDING_DESTINATION, OUTPUT_FORMAT) uniform writeonly image2D destination;

#include "filters/bigblur/chain_taps.glsl"

// A thread's ROWS outputs (x, first + i) down a column: take_taps() fetches every tap they read,
// once, and made(i) makes output i from them.
#if defined(CHAIN_COD13)
#define ROWS_HALF BIGBLUR_COD13_DOWN_ROWS_HALF
#define ROWS_FLOAT BIGBLUR_COD13_DOWN_ROWS_FLOAT
#else
#define ROWS_HALF BIGBLUR_DUAL_DOWN_ROWS_HALF
#define ROWS_FLOAT BIGBLUR_DUAL_DOWN_ROWS_FLOAT
#endif
#if defined(HALF_OUTPUT)
const int ROWS = ROWS_HALF;
#else
const int ROWS = ROWS_FLOAT;
#endif

#if defined(CHAIN_COD13)
// Output y's outer taps (corners, edges, centre) sit on the source's rows 2y - 1, 2y + 1 and 2y + 3,
// at x offsets -2, 0, 2 from its centre; its inner ones on rows 2y and 2y + 2, at -1 and 1.
vec4 outer[ROWS + 2][3], inner[ROWS + 1][2];

void take_taps(float cx, int first) {
  [[unroll]] for (int j = 0; j < ROWS + 2; ++j)
    [[unroll]] for (int k = 0; k < 3; ++k) outer[j][k] = tap(vec2(cx + float(2 * k - 2), 2.0 * float(first + j) - 1.0));
  [[unroll]] for (int j = 0; j < ROWS + 1; ++j)
    [[unroll]] for (int k = 0; k < 2; ++k) inner[j][k] = tap(vec2(cx + float(2 * k - 1), 2.0 * float(first + j)));
}

// Each sum in the order of the taps' definition: top left, top right, bottom left, bottom right; the
// edges top, left, right, bottom.
vec4 made(int i) {
  const vec4 inner_sum = inner[i][0] + inner[i][1] + inner[i + 1][0] + inner[i + 1][1];
  const vec4 corners = outer[i][0] + outer[i][2] + outer[i + 2][0] + outer[i + 2][2];
  const vec4 edges = outer[i][1] + outer[i + 1][0] + outer[i + 1][2] + outer[i + 2][1];
  return 0.125 * inner_sum + 0.03125 * corners + 0.0625 * edges + 0.125 * outer[i + 1][1];
}
#else
// Output y's corner taps sit on the source's rows 2y and 2y + 2, its centre tap on 2y + 1.
vec4 left[ROWS + 1], right[ROWS + 1], centre[ROWS];

void take_taps(float cx, int first) {
  [[unroll]] for (int i = 0; i <= ROWS; ++i) {
    left[i] = tap(vec2(cx - 1.0, 2.0 * float(first + i)));
    right[i] = tap(vec2(cx + 1.0, 2.0 * float(first + i)));
  }
  [[unroll]] for (int i = 0; i < ROWS; ++i) centre[i] = tap(vec2(cx, 2.0 * float(first + i) + 1.0));
}

vec4 made(int i) { return dual_down(centre[i], left[i], right[i], left[i + 1], right[i + 1]); }
#endif

void main() {
  const int x = int(gl_GlobalInvocationID.x), first = int(gl_GlobalInvocationID.y) * ROWS;
  const ivec2 size = imageSize(destination);
  if (x >= size.x || first >= size.y) return;
  take_taps(2.0 * float(x) + 1.0, first);  // the 2x2 blocks' centres, on texel corners
  [[unroll]] for (int i = 0; i < ROWS; ++i) {
    if (first + i >= size.y) break;
    imageStore(destination, ivec2(x, first + i), made(i));
  }
}
