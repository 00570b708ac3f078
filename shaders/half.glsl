// A value as a half-precision image stores it, rounded by packHalf2x16: for passes that keep in
// registers or shared memory what a level of halves would hold (the box pyramid, the dual filter's
// middle pass).
#ifndef FILTERLAB_HALF_GLSL
#define FILTERLAB_HALF_GLSL

vec4 rounded_to_half(vec4 v) { return vec4(unpackHalf2x16(packHalf2x16(v.xy)), unpackHalf2x16(packHalf2x16(v.zw))); }

#endif
