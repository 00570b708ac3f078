// Shared by the quad-exchange blurs, Zubatov & Shcherbakov section 3.1 for any separable kernel
// w(i) w(j). Each invocation of a 2x2 quad reads the (r+1)^2 texels at offsets T x T,
// T = {-r, -r+2, ..., r}, and hands its quad neighbours the partial sums they need, weighted with
// *their* kernel offsets. Variants differ only in how a value crosses the quad
// (filters/common/quad_exchange.glsl: QUAD_FRAGMENT_FINE, QUAD_FRAGMENT_COARSE, QUAD_SUBGROUP,
// QUAD_COMPUTE_DERIVATIVES, which quad.frag and quad.comp define in their variants). Compute
// variants also define OUTPUT_FORMAT (rgba16f or rgba32f) for the storage image.
#ifndef FILTERLAB_QUAD_COMMON_GLSL
#define FILTERLAB_QUAD_COMMON_GLSL
#include "filters/gaussian/gaussian_config.h"

#extension GL_EXT_control_flow_attributes : require
#define QUAD_TILE QUAD_GROUP
#include "filters/common/quad_exchange.glsl"

layout(constant_id = 0) const int RADIUS = 2;
layout(set = 0, binding = BINDING_SOURCE) uniform sampler2D source;

// The kernel comes as specialization constants, W<k> = w(k) = w(-k) (kernel_weights is exactly
// symmetric): the same floats BlurFilter uploads to the storage buffer the other methods read.
// Not that buffer: llvmpipe (Mesa 22.3) returns 0 for storage-buffer loads in helper
// invocations, and the exchange needs helper lanes to compute what a live lane would: they stand
// in for pixels past odd right and bottom edges, and for the halves of the quads llvmpipe shades
// twice where it splits the clipped full-screen triangle along the viewport diagonal.
layout(constant_id = 1) const float W0 = 0.0;
layout(constant_id = 2) const float W1 = 0.0;
layout(constant_id = 3) const float W2 = 0.0;
layout(constant_id = 4) const float W3 = 0.0;
layout(constant_id = 5) const float W4 = 0.0;
layout(constant_id = 6) const float W5 = 0.0;
layout(constant_id = 7) const float W6 = 0.0;
layout(constant_id = 8) const float W7 = 0.0;
layout(constant_id = 9) const float W8 = 0.0;
layout(constant_id = 10) const float W9 = 0.0;
layout(constant_id = 11) const float W10 = 0.0;
layout(constant_id = 12) const float W11 = 0.0;
layout(constant_id = 13) const float W12 = 0.0;
layout(constant_id = 14) const float W13 = 0.0;
layout(constant_id = 15) const float W14 = 0.0;
layout(constant_id = 16) const float W15 = 0.0;
layout(constant_id = 17) const float W16 = 0.0;
layout(constant_id = 18) const float W17 = 0.0;
layout(constant_id = 19) const float W18 = 0.0;
layout(constant_id = 20) const float W19 = 0.0;
layout(constant_id = 21) const float W20 = 0.0;
layout(constant_id = 22) const float W21 = 0.0;
layout(constant_id = 23) const float W22 = 0.0;
layout(constant_id = 24) const float W23 = 0.0;
layout(constant_id = 25) const float W24 = 0.0;
layout(constant_id = 26) const float W25 = 0.0;
layout(constant_id = 27) const float W26 = 0.0;
layout(constant_id = 28) const float W27 = 0.0;
layout(constant_id = 29) const float W28 = 0.0;
layout(constant_id = 30) const float W29 = 0.0;
layout(constant_id = 31) const float W30 = 0.0;
layout(constant_id = 32) const float W31 = 0.0;
layout(constant_id = 33) const float W32 = 0.0;

// w(k), 0 outside [-r, r]. A switch, not an array: glslang takes no global array of
// specialization constants, and with a local one llvmpipe built each pipeline ten times slower.
// In the unrolled loop over columns k is a constant and the switch folds away.
float kernel_weight(int k) {
  if (abs(k) > RADIUS) return 0.0;
  switch (abs(k)) {
    case 0: return W0; case 1: return W1; case 2: return W2; case 3: return W3;
    case 4: return W4; case 5: return W5; case 6: return W6; case 7: return W7;
    case 8: return W8; case 9: return W9; case 10: return W10; case 11: return W11;
    case 12: return W12; case 13: return W13; case 14: return W14; case 15: return W15;
    case 16: return W16; case 17: return W17; case 18: return W18; case 19: return W19;
    case 20: return W20; case 21: return W21; case 22: return W22; case 23: return W23;
    case 24: return W24; case 25: return W25; case 26: return W26; case 27: return W27;
    case 28: return W28; case 29: return W29; case 30: return W30; case 31: return W31;
    case 32: return W32;
  }
  return 0.0;
}

// The weight our offset k has for the neighbour at +t: w(k - t). For a constant k both
// candidates are constants and only the select is per lane.
float neighbour_weight(int k, float t) { return t > 0.0 ? kernel_weight(k - 1) : kernel_weight(k + 1); }

// Clamp to edge, like the reference. Invocations past the image (helpers, compute lanes past the
// edge) read clamped texels too: exactly the terms their neighbours inside need from them.
vec4 quad_fetch(ivec2 p) { return texelFetch(source, clamp(p, ivec2(0), textureSize(source, 0) - 1), 0); }

// The blurred value at p. All four invocations of the quad must call it, in uniform control flow.
vec4 quad_blur(ivec2 p) {
  const float tx = (p.x & 1) == 0 ? 1.0 : -1.0;
  const float ty = (p.y & 1) == 0 ? 1.0 : -1.0;
  // Rows are summed with our horizontal weights (row) and with the x-neighbour's (row_for_x).
  // Both members of an x-pair have the same rows, hence the same vertical weights, and the
  // exchange is linear: the paper's r+1 per-row x exchanges fold into one exchange of the
  // vertically weighted sum, once with our vertical weights and once with the y-neighbour's.
  // Three exchanges in all, whatever r.
  vec4 own = vec4(0.0), for_x = vec4(0.0);              // vertical weights w(i)
  vec4 own_for_y = vec4(0.0), for_x_for_y = vec4(0.0);  // vertical weights w(i - ty)
  for (int a = 0; a <= RADIUS; ++a) {
    const int i = 2 * a - RADIUS;
    vec4 row = vec4(0.0), row_for_x = vec4(0.0);
    // Unrolled, so the weights of the (r+1)^2 texels are constants; the r+1 rows look theirs up.
    // Forced, because the driver left it rolled at large radii, four times slower there; the outer
    // loop stays rolled, as unrolling it made llvmpipe's pipeline builds take seconds
    // (docs/gaussian-tuning.md, "quad methods").
    [[unroll]] for (int b = 0; b <= RADIUS; ++b) {
      const int j = 2 * b - RADIUS;
      const vec4 texel = quad_fetch(p + ivec2(j, i));
      row += kernel_weight(j) * texel;
      row_for_x += neighbour_weight(j, tx) * texel;
    }
    own += kernel_weight(i) * row;
    for_x += kernel_weight(i) * row_for_x;
    const float wy = neighbour_weight(i, ty);
    own_for_y += wy * row;
    for_x_for_y += wy * row_for_x;
  }
  // From the x-neighbour (equation 9): both sums now cover all 2r+1 columns of our rows.
  const vec4 sum = own + from_x_neighbour(for_x, tx);
  const vec4 sum_for_y = own_for_y + from_x_neighbour(for_x_for_y, tx);
  // From the y-neighbour (equation 10): the r rows we did not read.
  return sum + from_y_neighbour(sum_for_y, ty);
}

#if defined(QUAD_FRAGMENT_FINE) || defined(QUAD_FRAGMENT_COARSE)
layout(location = 0) out vec4 result;

void main() { result = quad_blur(ivec2(gl_FragCoord.xy)); }  // quads start at even coordinates

#else
// QUAD_GROUP x QUAD_GROUP pixels per workgroup, 2x2 per quad. Invocations past the image compute
// like the others (their quads need them) and only skip the store.
layout(set = 0, binding = BINDING_DESTINATION, OUTPUT_FORMAT) writeonly uniform image2D destination;

void main() {
  const ivec2 p = quad_pixel();
  const vec4 value = quad_blur(p);
  if (all(lessThan(p, imageSize(destination)))) imageStore(destination, p, value);
}
#endif

#endif
