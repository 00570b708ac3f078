#ifndef VIEW_DEPTH_RANGE_GLSL
#define VIEW_DEPTH_RANGE_GLSL
// How the depth range buffer holds this frame's nearest and farthest geometry depth, shared by the
// step that finds them (view_depth_range.comp) and the one that shows depth (view_depth.comp):
// each as an order key, so that integer atomics min/max order the floats. ViewPass's
// "range reset" pass starts the nearest at 0xffffffff and the farthest at 0 (an empty range).

// A float's bits reordered so that unsigned order is float order (negative values too).
uint order_key(float value) {
  const uint bits = floatBitsToUint(value);
  return (bits & 0x80000000u) != 0u ? ~bits : bits | 0x80000000u;
}

float from_order_key(uint key) {
  return uintBitsToFloat((key & 0x80000000u) != 0u ? key & 0x7fffffffu : ~key);
}

#endif
