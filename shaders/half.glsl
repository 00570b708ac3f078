// A value as a half-precision image stores it: rounded to the nearest half, ties to even, in integer
// arithmetic. For passes that keep in registers or shared memory what a level of halves would hold
// (the box pyramid, the dual filter's middle pass), so that the value kept and the value stored are
// one number. (unpackHalf2x16(packHalf2x16(v)) leaves the rounding to the compiler: Mesa 25's
// llvmpipe kept values that differ from what its image stores hold, and the pyramid's level 2 then
// missed the box mean of level 1 as stored by 2 half ulps.) The result is a half exactly, which
// any conversion on the store keeps as it is.
#ifndef FILTERLAB_HALF_GLSL
#define FILTERLAB_HALF_GLSL

float rounded_to_half(float x) {
  const uint bits = floatBitsToUint(x), sign = bits & 0x80000000u, magnitude = bits & 0x7fffffffu;
  if (magnitude >= 0x7f800000u) return x;                                 // infinity, NaN
  if (magnitude >= 0x477ff000u) return uintBitsToFloat(sign | 0x7f800000u);  // 65520 and up: infinity
  if (magnitude >= 0x38800000u) {  // a normal half (2^-14 and up): 10 of the 23 fraction bits kept
    const uint kept = (magnitude + 0xfffu + ((magnitude >> 13) & 1u)) & ~0x1fffu;
    return uintBitsToFloat(sign | kept);
  }
  // A subnormal half: a whole number of 2^-24, scaled by powers of two (exact) around roundEven.
  const float quanta = roundEven(uintBitsToFloat(magnitude) * 16777216.0);
  return uintBitsToFloat(sign | floatBitsToUint(quanta * (1.0 / 16777216.0)));
}

vec4 rounded_to_half(vec4 v) {
  return vec4(rounded_to_half(v.x), rounded_to_half(v.y), rounded_to_half(v.z), rounded_to_half(v.w));
}

#endif
