// How a value crosses a 2x2 quad (Zubatov & Shcherbakov, equations 9 and 10), shared by every
// quad-exchange method of every family. The including shader defines one mode before including:
//   QUAD_FRAGMENT_FINE, QUAD_FRAGMENT_COARSE  fragment shader, dFdxFine/dFdyFine or the coarse ones
//                                             (v + t * ddx(v)); coarse is not exact (tables 3, 4)
//   QUAD_SUBGROUP                             compute shader, subgroupQuadSwapHorizontal/Vertical
//   QUAD_COMPUTE_DERIVATIVES                  compute shader, dFdxFine/dFdyFine over
//                                             derivative_group_quadsNV
// and, for the compute modes, QUAD_TILE: the workgroup covers QUAD_TILE x QUAD_TILE pixels.
// from_x_neighbour(v, t) returns the x-neighbour's v (t = +1 in even columns, whose neighbour lies
// at +1, -1 in odd ones); from_y_neighbour likewise along y. quad_pixel() numbers a compute
// invocation so that its quad is the hardware's.
#ifndef FILTERLAB_QUAD_EXCHANGE_GLSL
#define FILTERLAB_QUAD_EXCHANGE_GLSL

#if defined(QUAD_SUBGROUP)
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_quad : require
#elif defined(QUAD_COMPUTE_DERIVATIVES)
// glslang 11 has no GLSL name for the KHR extension; the NV one gives the same capability.
#extension GL_NV_compute_shader_derivatives : require
#endif

#if defined(QUAD_FRAGMENT_FINE) || defined(QUAD_COMPUTE_DERIVATIVES)
vec4 from_x_neighbour(vec4 v, float t) { return v + t * dFdxFine(v); }
vec4 from_y_neighbour(vec4 v, float t) { return v + t * dFdyFine(v); }
#elif defined(QUAD_FRAGMENT_COARSE)
// One derivative for the whole quad, taken from one row (column): the other row (column)
// receives that pair's values instead of its own neighbour's.
vec4 from_x_neighbour(vec4 v, float t) { return v + t * dFdxCoarse(v); }
vec4 from_y_neighbour(vec4 v, float t) { return v + t * dFdyCoarse(v); }
#elif defined(QUAD_SUBGROUP)
// Quad lanes 0, 1, 2, 3 hold pixels (0,0), (1,0), (0,1), (1,1): see quad_pixel below.
vec4 from_x_neighbour(vec4 v, float t) { return subgroupQuadSwapHorizontal(v); }
vec4 from_y_neighbour(vec4 v, float t) { return subgroupQuadSwapVertical(v); }
#else
#error "define QUAD_FRAGMENT_FINE, QUAD_FRAGMENT_COARSE, QUAD_SUBGROUP or QUAD_COMPUTE_DERIVATIVES"
#endif

#if defined(QUAD_SUBGROUP) || defined(QUAD_COMPUTE_DERIVATIVES)
#define QUAD_IN_COMPUTE 1
#ifndef QUAD_TILE
#error "a compute quad shader defines QUAD_TILE, its workgroup's side in pixels"
#endif
#if defined(QUAD_SUBGROUP)
layout(local_size_x = QUAD_TILE * QUAD_TILE) in;

ivec2 quad_pixel() {
  // Subgroup quads are invocations 4k..4k+3 of a subgroup, whatever local index the driver gave
  // them, so the pixel follows from the subgroup position: lane bit 0 is x and bit 1 is y, which
  // is what QuadSwapHorizontal (lane ^ 1) and QuadSwapVertical (lane ^ 2) exchange. The host
  // checks that full subgroups tile the workgroup (subgroup_quads_in_compute).
  const uint slot = gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID;
  const uint quad = slot >> 2, lane = slot & 3u;
  const ivec2 block = ivec2(quad % uint(QUAD_TILE / 2), quad / uint(QUAD_TILE / 2));
  return ivec2(gl_WorkGroupID.xy) * QUAD_TILE + 2 * block + ivec2(lane & 1u, lane >> 1);
}
#else
layout(local_size_x = QUAD_TILE, local_size_y = QUAD_TILE) in;
// Derivatives pair local invocations (2x, 2y), (2x+1, 2y), (2x, 2y+1), (2x+1, 2y+1).
layout(derivative_group_quadsNV) in;

ivec2 quad_pixel() { return ivec2(gl_GlobalInvocationID.xy); }
#endif
#endif

#endif
