#pragma once
// Every VkResult is checked, in every build type: a failure throws VulkanError naming the call,
// the source location and the result, and main() reports it and exits non-zero.
#include <vulkan/vulkan.h>

#include <stdexcept>
#include <string>

namespace filterlab::vk {

const char* result_name(VkResult result);

class VulkanError : public std::runtime_error {
 public:
  VulkanError(VkResult result, const char* call, const char* file, int line);
  VkResult result() const { return result_; }

 private:
  VkResult result_;
};

// Raised when no loader, driver or suitable device exists; main maps it to exit code 3.
class NoDeviceError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

inline void check(VkResult result, const char* call, const char* file, int line) {
  if (result < 0) throw VulkanError(result, call, file, line);
}

}  // namespace filterlab::vk

#define VK_CHECK(call) ::filterlab::vk::check((call), #call, __FILE__, __LINE__)
