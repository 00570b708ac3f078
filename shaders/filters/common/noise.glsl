// Per-pixel noise for rotating sample patterns.
#ifndef FILTERLAB_NOISE_GLSL
#define FILTERLAB_NOISE_GLSL

// Interleaved gradient noise (Jimenez, "Next Generation Post Processing in Call of Duty: Advanced
// Warfare", SIGGRAPH 2014): fract(52.9829189 fract(0.06711056 x + 0.00583715 y)) at the pixel's
// integer index (x, y) (not its centre), both moved by 5.588238 (frame mod 64) so that successive
// frames sample other rotations. In [0, 1). renderer/filters/bigblur/design.h has the same formula
// for the test that checks this one.
float interleaved_gradient_noise(ivec2 p, uint frame) {
  const vec2 at = vec2(p) + 5.588238 * float(frame % 64u);
  return fract(52.9829189 * fract(0.06711056 * at.x + 0.00583715 * at.y));
}

// White noise in [0, 1): a hash of the pixel and the frame (the PCG output permutation on a
// combined seed), for comparing against the gradient noise.
float white_noise(ivec2 p, uint frame) {
  uint v = uint(p.x) * 1973u + uint(p.y) * 9277u + frame * 26699u;
  v = v * 747796405u + 2891336453u;
  v = ((v >> ((v >> 28u) + 4u)) ^ v) * 277803737u;
  v = (v >> 22u) ^ v;
  return float(v >> 8) / 16777216.0;
}

#endif
