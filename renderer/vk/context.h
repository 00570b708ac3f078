#pragma once
// Instance, device and queue, the validation messenger, and the device facts filters adapt to.
#include "vk/check.h"

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace filterlab::vk {

struct ContextOptions {
  bool validation = false;                       // Khronos layer with synchronization validation
  std::string device_selector;                   // index or case-insensitive name substring; empty: best
  std::vector<const char*> instance_extensions;  // e.g. from glfwGetRequiredInstanceExtensions
  bool swapchain = false;                        // enable VK_KHR_swapchain on the device
  bool print_messages = true;                    // print validation messages to stderr
  bool compute_derivatives = false;              // enable derivatives in compute shaders where supported
  // Capture what the driver's compiler reports per pipeline (registers, instructions, spills) through
  // VK_KHR_pipeline_executable_properties where supported; see vk/pipeline_statistics.h.
  bool pipeline_statistics = false;
};

// What the filters need to know about the device, reported by `filterlab info`.
struct DeviceReport {
  std::string name, driver_name, driver_info, device_type;
  uint32_t api_version = 0, driver_version = 0, vendor_id = 0, device_id = 0;
  uint32_t subgroup_size = 0;
  // The sizes a compute shader may run at (Vulkan 1.3: SPIR-V 1.6 shaders get any size in this range
  // unless the pipeline asks for one; NVIDIA and lavapipe have one size).
  uint32_t min_subgroup_size = 0, max_subgroup_size = 0;
  std::vector<std::string> subgroup_operations, subgroup_stages;
  bool quad_operations_in_all_stages = false;
  uint32_t max_compute_shared_memory = 0;
  uint32_t max_compute_workgroup_invocations = 0;
  uint32_t max_image_dimension_2d = 0;
  uint64_t device_local_bytes = 0;  // the largest DEVICE_LOCAL heap
  // Shader cores: NVIDIA SMs (VK_NV_shader_sm_builtins) or AMD CUs (VK_AMD_shader_core_properties),
  // where the driver reports them; 0 where it does not (lavapipe, Intel). Methods that size one
  // wave of workgroups use it.
  uint32_t shader_cores = 0;
  float timestamp_period_ns = 0;
  uint32_t timestamp_valid_bits = 0;
  bool shader_float16 = false;
  bool shader_float64 = false;
  bool storage_16bit = false;
  bool compute_shader_derivatives = false;  // KHR or NV extension, quad grouping
  std::string compute_derivatives_extension;
  bool compute_derivatives_enabled = false;  // ContextOptions::compute_derivatives asked and it was enabled
  bool storage_read_without_format = false;
  bool independent_blend = false;
  bool pipeline_statistics = false;  // ContextOptions::pipeline_statistics asked and the device has it
};

std::string api_version_string(uint32_t version);

// The one validation message filterlab does not count. Debian 12's validation layer (1.3.239) is
// older than NVIDIA's 580 driver (Vulkan 1.4). While vkCreateDevice runs, the driver asks
// vkGetDeviceProcAddr for vkGetPhysicalDeviceVideoEncodeQualityLevelPropertiesKHR; that reaches the
// layer at the top of the chain, which does not know the name and warns
// "WARNING-vkGetDeviceProcAddr-device ... is an instance level function". Traced on the H100: the
// warning is raised inside the layer's vkGetDeviceProcAddr during vkCreateDevice, and the name is in
// none of filterlab's binary, its libraries, Debian's loader or the layer: only the driver has it.
// filterlab's own vkGetDeviceProcAddr calls ask for device functions only. So: that message ID,
// naming a vkGetPhysicalDevice* function, and nothing else; every other message counts, that ID
// naming any other function included.
bool is_layer_older_than_driver_message(const char* message_id_name, const char* message);

class Context {
 public:
  explicit Context(const ContextOptions& options);
  ~Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  VkInstance instance() const { return instance_; }
  VkPhysicalDevice physical_device() const { return physical_device_; }
  VkDevice device() const { return device_; }
  VkQueue queue() const { return queue_; }
  uint32_t queue_family() const { return queue_family_; }
  const DeviceReport& report() const { return report_; }
  const VkPhysicalDeviceProperties& properties() const { return properties_; }
  uint32_t memory_type(uint32_t type_bits, VkMemoryPropertyFlags required) const;

  // Validation messages (warnings and errors) seen so far; tests require zero.
  uint32_t validation_messages() const { return validation_messages_.load(); }
  // Messages seen and not counted (is_layer_older_than_driver_message): reported by `info`.
  uint32_t ignored_validation_messages() const { return ignored_messages_.load(); }
  bool validation_enabled() const { return validation_; }

  // Debug names and labels; no-ops when VK_EXT_debug_utils is absent.
  void set_name(VkObjectType type, uint64_t handle, const std::string& name) const;
  template <typename Handle>
  void name(Handle handle, VkObjectType type, const std::string& n) const {
    set_name(type, reinterpret_cast<uint64_t>(handle), n);
  }
  void begin_label(VkCommandBuffer cmd, const std::string& label) const;
  void end_label(VkCommandBuffer cmd) const;

  // VK_KHR_push_descriptor is an extension, so the loader does not export it.
  PFN_vkCmdPushDescriptorSetKHR cmd_push_descriptor_set = nullptr;

  static std::vector<VkPhysicalDevice> enumerate(VkInstance instance);

 private:
  static VkBool32 VKAPI_PTR on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                       VkDebugUtilsMessageTypeFlagsEXT types,
                                       const VkDebugUtilsMessengerCallbackDataEXT* data, void* self);
  void create_instance(const ContextOptions& options);
  void pick_device(const std::string& selector);
  void create_device(const ContextOptions& options);
  void fill_report();

  bool validation_ = false;
  bool print_messages_ = true;
  std::atomic<uint32_t> validation_messages_{0}, ignored_messages_{0};
  VkInstance instance_ = VK_NULL_HANDLE;
  VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
  VkPhysicalDevice physical_device_ = VK_NULL_HANDLE;
  VkPhysicalDeviceProperties properties_{};
  VkPhysicalDeviceMemoryProperties memory_{};
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  uint32_t queue_family_ = 0;
  DeviceReport report_;
  std::string derivatives_extension_;
  PFN_vkSetDebugUtilsObjectNameEXT set_object_name_ = nullptr;
  PFN_vkCmdBeginDebugUtilsLabelEXT cmd_begin_label_ = nullptr;
  PFN_vkCmdEndDebugUtilsLabelEXT cmd_end_label_ = nullptr;
};

}  // namespace filterlab::vk
