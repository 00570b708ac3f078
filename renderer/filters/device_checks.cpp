#include "filters/device_checks.h"

#include <algorithm>

namespace filterlab::filters {
namespace {

bool contains(const std::vector<std::string>& list, const char* item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

// Every size a compute shader may run at (DeviceReport::min/max_subgroup_size) must be at least
// `min_size` and tile a group of `threads`.
Support subgroup_operation_in_compute(const vk::Context& device, const char* operation, uint32_t min_size,
                                      uint32_t threads, const char* tiling) {
  const vk::DeviceReport& r = device.report();
  if (!contains(r.subgroup_operations, operation))
    return {std::string("device lacks subgroup ") + operation + " operations"};
  if (!contains(r.subgroup_stages, "compute"))
    return {"device has no subgroup operations in compute shaders"};
  if (r.min_subgroup_size < min_size || r.max_subgroup_size > threads) {
    const std::string sizes =
        r.min_subgroup_size == r.max_subgroup_size
            ? std::to_string(r.min_subgroup_size)
            : std::to_string(r.min_subgroup_size) + " to " + std::to_string(r.max_subgroup_size);
    return {"subgroup size " + sizes + " does not tile a " + std::to_string(threads) +
            "-invocation workgroup" + tiling};
  }
  return {};
}

}  // namespace

Support subgroup_quads_in_compute(const vk::Context& device, uint32_t threads) {
  return subgroup_operation_in_compute(device, "quad", 4, threads, " in quads");
}

Support subgroup_shuffles_in_compute(const vk::Context& device, uint32_t min_size, uint32_t threads) {
  return subgroup_operation_in_compute(device, "shuffle", min_size, threads, "");
}

Support subgroup_arithmetic_in_compute(const vk::Context& device, uint32_t threads, uint32_t min_size) {
  return subgroup_operation_in_compute(device, "arithmetic", min_size, threads, "");
}

Support compute_derivatives(const vk::Context& device) {
  const vk::DeviceReport& r = device.report();
  if (!r.compute_shader_derivatives)
    return {
        "device lacks VK_KHR_compute_shader_derivatives (and VK_NV_compute_shader_derivatives) with quad "
        "groups"};
  if (!r.compute_derivatives_enabled)
    return {"not enabled: " + r.compute_derivatives_extension +
            " is there but the context was created without ContextOptions::compute_derivatives"};
  return {};
}

Support shared_memory_support(const vk::Context& device, int max_radius, uint32_t threads, uint32_t bytes) {
  const vk::DeviceReport& report = device.report();
  if (report.max_compute_workgroup_invocations < threads)
    return {"needs " + std::to_string(threads) + " invocations per workgroup, the device allows " +
            std::to_string(report.max_compute_workgroup_invocations)};
  if (max_radius < 1)
    return {"needs " + std::to_string(bytes) + " bytes of shared memory at radius 1, the device has " +
            std::to_string(report.max_compute_shared_memory)};
  return {{}, max_radius};
}

}  // namespace filterlab::filters
