// The Gaussian (box, binomial) as a window of one separable term (filters/common/window_terms.glsl):
// g(x, y) = w(x) w(y), W<k> = w(k) = w(-k) as specialization constants, the floats the CPU reference
// sums. Not the buffer the family's other methods read: llvmpipe (Mesa 22.3) returns 0 for storage
// loads in helper invocations, which the quad exchange needs (pixels past odd edges, the quads
// llvmpipe shades twice where it splits the full-screen triangle).
#ifndef FILTERLAB_GAUSSIAN_WINDOW_GLSL
#define FILTERLAB_GAUSSIAN_WINDOW_GLSL
#include "filters/gaussian/gaussian_config.h"

#define WEIGHT(k) layout(constant_id = GAUSSIAN_WEIGHT_ID(k)) const float
WEIGHT(0) W0 = 0.0; WEIGHT(1) W1 = 0.0; WEIGHT(2) W2 = 0.0; WEIGHT(3) W3 = 0.0; WEIGHT(4) W4 = 0.0;
WEIGHT(5) W5 = 0.0; WEIGHT(6) W6 = 0.0; WEIGHT(7) W7 = 0.0; WEIGHT(8) W8 = 0.0; WEIGHT(9) W9 = 0.0;
WEIGHT(10) W10 = 0.0; WEIGHT(11) W11 = 0.0; WEIGHT(12) W12 = 0.0; WEIGHT(13) W13 = 0.0; WEIGHT(14) W14 = 0.0;
WEIGHT(15) W15 = 0.0; WEIGHT(16) W16 = 0.0; WEIGHT(17) W17 = 0.0; WEIGHT(18) W18 = 0.0; WEIGHT(19) W19 = 0.0;
WEIGHT(20) W20 = 0.0; WEIGHT(21) W21 = 0.0; WEIGHT(22) W22 = 0.0; WEIGHT(23) W23 = 0.0; WEIGHT(24) W24 = 0.0;
WEIGHT(25) W25 = 0.0; WEIGHT(26) W26 = 0.0; WEIGHT(27) W27 = 0.0; WEIGHT(28) W28 = 0.0; WEIGHT(29) W29 = 0.0;
WEIGHT(30) W30 = 0.0; WEIGHT(31) W31 = 0.0; WEIGHT(32) W32 = 0.0;
#undef WEIGHT

#if defined(WINDOW_FULL2D)
// frag.full2d loads w(k) from the weights buffer (the same floats; no helper lane reads it), as the
// hand-written shader did: the switch below was slower there at r = 32, fp16, on the H100.
layout(set = 0, binding = BINDING_WEIGHTS, std430) readonly buffer Weights { float weights[]; };
float kernel_weight(int k) { return abs(k) > RADIUS ? 0.0 : weights[RADIUS + k]; }
#else
// w(k), 0 past the radius. A switch, not an array: glslang takes no global array of specialization
// constants, and with a local one llvmpipe built each pipeline ten times slower; it folds away unrolled.
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
#endif

float term_h(int t, int x) { return kernel_weight(x); }
float term_v(int t, int y) { return kernel_weight(y); }

#endif
