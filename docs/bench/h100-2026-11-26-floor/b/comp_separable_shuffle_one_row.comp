#version 460
// comp.separable_shuffle: a separable blur in one dispatch with no shared memory and no barriers.
// Each subgroup walks down a strip as wide as itself, one column a lane, in batches of B rows: it
// fetches the batch's texels, takes each horizontal tap from the lane that fetched it (a subgroup
// shuffle), keeps the last 2r + B horizontal sums of its column in registers, and filters B outputs
// from them.
//
// Why: comp.separable_stream stages every batch through shared memory between two barriers, with
// five groups of 128 threads per SM; with its filters cut to the centre tap it still took 1.18x the
// copy floor on the H100 (docs/stream-tuning.md), so at small radii its shape, not its arithmetic,
// is what stands between it and the floor. Here every subgroup runs on its own, and an SM holds as
// many of them as registers allow, each with a batch of loads in flight.
//
// The apron: lane j also fetches one apron texel, the right apron's (column S + j of the strip) for
// j < r and the left apron's (column j - S) for j >= S - r (S = subgroup size, 2r <= S). Tap +t of
// lane l comes from lane (l + t) mod S: that lane's own texel when l + t < S, else its right-apron
// texel, which is column l + t; tap -t alike from lane (l - t) mod S. So each tap is one select on
// the sending side and one shuffle, whatever the lane.
//! variant fp16 OUTPUT_FORMAT=rgba16f STORE_HALF=1
//! variant fp32 OUTPUT_FORMAT=rgba32f STORE_HALF=0
#extension GL_GOOGLE_include_directive : require
#include "filters/gaussian/gaussian_config.h"
#extension GL_EXT_control_flow_attributes : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_shuffle : require

layout(constant_id = 0) const int RADIUS = 1;
layout(local_size_x = SHUFFLE_THREADS) in;

layout(set = 0, binding = BINDING_SOURCE) uniform sampler2D source;  // read with texelFetch: no filtering
// w4[j / 4][j % 4] = w(j - RADIUS), j in [0, 2r] (the stream method's block; its half weights unused).
layout(set = 0, binding = BINDING_WEIGHTS, std140) uniform Weights { vec4 w4[GAUSSIAN_WEIGHT_VEC4S]; };
#define W(j) w4[(j) >> 2][(j) & 3]
layout(set = 0, binding = BINDING_DESTINATION, OUTPUT_FORMAT) uniform writeonly image2D destination;

// Texels and horizontal sums as held in registers and shuffled: for fp16 images packed halves (half
// the shuffles and registers; the sums rounded as comp.separable_shared rounds its fp16
// intermediate image), for fp32 images floats. Accumulation is fp32 throughout.
#if STORE_HALF
#define Held uvec2
Held held_form(vec4 v) { return uvec2(packHalf2x16(v.xy), packHalf2x16(v.zw)); }
vec4 held_value(Held h) { return vec4(unpackHalf2x16(h.x), unpackHalf2x16(h.y)); }
#else
#define Held vec4
Held held_form(vec4 v) { return v; }
vec4 held_value(Held h) { return h; }
#endif

const int B = SHUFFLE_BATCH;           // input rows per batch
const int TAPS = 2 * RADIUS + 1;
const int WINDOW = 2 * RADIUS + B;     // horizontal sums per column kept by the vertical step

vec4 horizontal(Held own, Held apron, int lane, int lanes) {
  vec4 sum = W(RADIUS) * held_value(own);
  [[unroll]] for (int t = 1; t <= RADIUS; ++t) {
    const Held right = subgroupShuffle(lane < t ? apron : own, (lane + t) & (lanes - 1));
    const Held left = subgroupShuffle(lane >= lanes - t ? apron : own, (lane - t) & (lanes - 1));
    sum += W(RADIUS + t) * held_value(right);
    sum += W(RADIUS - t) * held_value(left);
  }
  return sum;
}

void main() {
  const ivec2 size = textureSize(source, 0), hi = size - 1;
  const int lanes = int(gl_SubgroupSize);  // a power of two, at least 2r (the host's support check)
  const int lane = int(gl_SubgroupInvocationID);
  const int x = int(gl_WorkGroupID.x) * SHUFFLE_THREADS + int(gl_SubgroupID) * lanes + lane;
  const int own_x = min(x, hi.x);
  const bool holds_apron = lane < RADIUS || lane >= lanes - RADIUS;
  const int apron_x = clamp(x + (lane < RADIUS ? lanes : -lanes), 0, hi.x);

  // The groups in a column share the height evenly, in whole batches (the host sets how many).
  const int groups_y = int(gl_NumWorkGroups.y);
  const int chunk = ((size.y + groups_y - 1) / groups_y + B - 1) / B * B;
  const int top = int(gl_WorkGroupID.y) * chunk, rows = min(chunk, size.y - top);
  if (rows <= 0) return;  // the whole group
  const int batches = (rows + 2 * RADIUS + B - 1) / B;
  Held window[WINDOW];
  [[unroll]] for (int j = 0; j < WINDOW; ++j) window[j] = held_form(vec4(0.0));
  for (int i = 0; i < batches; ++i) {
    // After batch i the window holds the sums of rows top - r + i * B - 2r .. top - r + i * B + B - 1,
    // so output k of this batch is row top + i * B - 2r + k.
    Held own[B], apron[B];
    [[unroll]] for (int k = 0; k < B; ++k) {
      const int y = clamp(top - RADIUS + i * B + k, 0, hi.y);
      own[k] = held_form(texelFetch(source, ivec2(own_x, y), 0));
      apron[k] = own[k];
      if (holds_apron) apron[k] = held_form(texelFetch(source, ivec2(apron_x, y), 0));
    }
    [[unroll]] for (int j = 0; j < 2 * RADIUS; ++j) window[j] = window[j + B];
    [[unroll]] for (int k = 0; k < B; ++k) window[2 * RADIUS + k] = held_form(horizontal(own[k], apron[k], lane, lanes));
    const int m0 = i * B - 2 * RADIUS;  // output row of k = 0, relative to top
    if (m0 + B <= 0) continue;          // the window is not full yet (uniform over the subgroup)
    [[unroll]] for (int k = 0; k < B; ++k) {
      vec4 sum = vec4(0.0);
      [[unroll]] for (int j = 0; j < TAPS; ++j) sum += W(j) * held_value(window[k + j]);
      const int m = m0 + k;
      // Rounded here, not by the store: lavapipe's conversion on store truncates.
      if (x <= hi.x && m >= 0 && m < rows) imageStore(destination, ivec2(x, top + m), held_value(held_form(sum)));
    }
  }
}
