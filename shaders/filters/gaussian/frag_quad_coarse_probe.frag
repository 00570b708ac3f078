#version 460
// Test probe, no blur: how far this driver's coarse derivatives of a texel are from its fine ones.
// GLSL allows coarse derivatives to be computed as fine; the coarse blur's test checks which.
layout(set = 0, binding = 0) uniform sampler2D source;
layout(location = 0) out vec4 result;

void main() {
  const vec4 v = texelFetch(source, ivec2(gl_FragCoord.xy), 0);
  result = vec4(dFdxCoarse(v.x) - dFdxFine(v.x), dFdyCoarse(v.x) - dFdyFine(v.x),
                dFdxCoarse(v.y) - dFdxFine(v.y), dFdyCoarse(v.y) - dFdyFine(v.y));
}
