// bigblur's chains' down taps, shared by the down passes (chain_down.comp) and the dual filter's
// middle pass, which makes the deepest level's texels itself (chain_up.comp, FUSED_DOWN). Offsets
// in texels of `source`, the finer level: texel i of the coarser level covers 2i and 2i + 1 of it.
// The including shader declares `source` (bilinear, clamp to edge) first.
#ifndef FILTERLAB_CHAIN_TAPS_GLSL
#define FILTERLAB_CHAIN_TAPS_GLSL

// A bilinear tap at `at`, in source texels (texel centres at i + 0.5); the sampler clamps to edge.
vec4 tap(vec2 at) { return textureLod(source, at / vec2(textureSize(source, 0)), 0.0); }

// Dual filtering's down texel (Bjorge 2015) from its centre tap (weight 4/8) and its four diagonal
// corner taps (1/8 each): top left, top right, bottom left, bottom right, added in that order.
vec4 dual_down(vec4 centre, vec4 top_left, vec4 top_right, vec4 bottom_left, vec4 bottom_right) {
  const vec4 corners = top_left + top_right + bottom_left + bottom_right;
  return 0.5 * centre + 0.125 * corners;
}

// Coarse texel q of the dual filter's down pass, from its five taps: the block's centre and corners.
vec4 dual_down_texel(ivec2 q) {
  const vec2 c = 2.0 * vec2(q) + 1.0;
  return dual_down(tap(c), tap(c - 1.0), tap(c + vec2(1.0, -1.0)), tap(c + vec2(-1.0, 1.0)), tap(c + 1.0));
}

#endif
