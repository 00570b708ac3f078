#pragma once
// Device checks that methods of several families share.
#include "filters/family.h"

namespace filterlab::filters {

// For compute shaders that number their threads by subgroup position and swap values within
// quads: unavailable unless the device has quad operations in compute shaders and full subgroups
// of 4 to `threads` invocations tile a group of `threads`.
Support subgroup_quads_in_compute(const vk::Context& device, uint32_t threads);

// For compute shaders that pass values between any lanes of a subgroup: unavailable unless the
// device has shuffles in compute shaders and every subgroup size a compute shader may run at is at
// least `min_size` and at most `threads` (full subgroups tile a group).
Support subgroup_shuffles_in_compute(const vk::Context& device, uint32_t min_size, uint32_t threads);

// For compute shaders that scan across a subgroup (subgroupInclusiveAdd, say): unavailable unless the
// device has arithmetic subgroup operations in compute shaders and its subgroups fit a group of
// `threads`.
// `min_size`: the smallest subgroup the shader can take (one that keeps a total a subgroup in a
// fixed array, say).
Support subgroup_arithmetic_in_compute(const vk::Context& device, uint32_t threads, uint32_t min_size = 1);

// For compute shaders that take derivatives over quads of invocations: unavailable unless the
// device has compute-shader derivatives and the context enabled them.
Support compute_derivatives(const vk::Context& device);

// For a method that needs `threads` invocations per group and `bytes` of shared memory at its
// smallest radius: unavailable when the device has less; else limits radius to max_radius.
Support shared_memory_support(const vk::Context& device, int max_radius, uint32_t threads, uint32_t bytes);

}  // namespace filterlab::filters
