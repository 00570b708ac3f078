#include "vk/context.h"

#include <execinfo.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>

namespace filterlab::vk {

namespace {

constexpr const char* kValidationLayer = "VK_LAYER_KHRONOS_validation";

bool has_extension(const std::vector<VkExtensionProperties>& list, const char* name) {
  return std::any_of(list.begin(), list.end(),
                     [&](const VkExtensionProperties& e) { return std::strcmp(e.extensionName, name) == 0; });
}

std::vector<VkExtensionProperties> device_extensions(VkPhysicalDevice device) {
  uint32_t count = 0;
  VK_CHECK(vkEnumerateDeviceExtensionProperties(device, nullptr, &count, nullptr));
  std::vector<VkExtensionProperties> list(count);
  VK_CHECK(vkEnumerateDeviceExtensionProperties(device, nullptr, &count, list.data()));
  return list;
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

std::optional<uint32_t> graphics_compute_family(VkPhysicalDevice device) {
  uint32_t count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(device, &count, nullptr);
  std::vector<VkQueueFamilyProperties> families(count);
  vkGetPhysicalDeviceQueueFamilyProperties(device, &count, families.data());
  for (uint32_t i = 0; i < count; ++i) {
    const VkQueueFlags needed = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT;
    if ((families[i].queueFlags & needed) == needed && families[i].timestampValidBits > 0) return i;
  }
  return std::nullopt;
}

const char* device_type_name(VkPhysicalDeviceType type) {
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual";
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return "cpu";
    default: return "other";
  }
}

int type_rank(VkPhysicalDeviceType type) {
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return 0;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return 1;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return 2;
    default: return 3;
  }
}

}  // namespace

std::string api_version_string(uint32_t v) {
  return std::to_string(VK_API_VERSION_MAJOR(v)) + "." + std::to_string(VK_API_VERSION_MINOR(v)) + "." +
         std::to_string(VK_API_VERSION_PATCH(v));
}

std::vector<VkPhysicalDevice> Context::enumerate(VkInstance instance) {
  uint32_t count = 0;
  VK_CHECK(vkEnumeratePhysicalDevices(instance, &count, nullptr));
  std::vector<VkPhysicalDevice> devices(count);
  VK_CHECK(vkEnumeratePhysicalDevices(instance, &count, devices.data()));
  return devices;
}

Context::Context(const ContextOptions& options)
    : validation_(options.validation), print_messages_(options.print_messages) {
  try {
    create_instance(options);
    pick_device(options.device_selector);
    create_device(options);
    fill_report();
  } catch (...) {
    this->~Context();
    throw;
  }
}

Context::~Context() {
  if (device_) vkDestroyDevice(device_, nullptr);
  device_ = VK_NULL_HANDLE;
  if (messenger_) {
    auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance_, "vkDestroyDebugUtilsMessengerEXT"));
    if (destroy) destroy(instance_, messenger_, nullptr);
    messenger_ = VK_NULL_HANDLE;
  }
  if (instance_) vkDestroyInstance(instance_, nullptr);
  instance_ = VK_NULL_HANDLE;
}

bool is_layer_older_than_driver_message(const char* message_id_name, const char* message) {
  if (!message_id_name || !message || std::strcmp(message_id_name, "WARNING-vkGetDeviceProcAddr-device") != 0)
    return false;
  // "vkGetDeviceProcAddr(): pName is trying to grab vkGetPhysicalDevice... which is an instance level
  // function"
  const char* grab = std::strstr(message, "trying to grab ");
  return grab && std::strncmp(grab + std::strlen("trying to grab "), "vkGetPhysicalDevice", 19) == 0 &&
         std::strstr(message, "which is an instance level function") != nullptr;
}

VkBool32 Context::on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT,
                             const VkDebugUtilsMessengerCallbackDataEXT* data, void* self) {
  auto* context = static_cast<Context*>(self);
  // FILTERLAB_VALIDATION_BACKTRACE=1: who called, for each message (how the one ignored below was
  // traced to vkCreateDevice; addresses resolve with addr2line against the same libraries).
  if (const char* trace = std::getenv("FILTERLAB_VALIDATION_BACKTRACE"); trace && *trace == '1') {
    std::fprintf(stderr, "validation message %s, called from:\n",
                 data->pMessageIdName ? data->pMessageIdName : "?");
    void* frames[48];
    ::backtrace_symbols_fd(frames, ::backtrace(frames, 48), STDERR_FILENO);
  }
  if (is_layer_older_than_driver_message(data->pMessageIdName, data->pMessage)) {
    context->ignored_messages_++;
    return VK_FALSE;
  }
  context->validation_messages_++;
  if (context->print_messages_) {
    const char* level = severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT ? "error" : "warning";
    std::fprintf(stderr, "validation %s: %s\n", level, data->pMessage);
  }
  return VK_FALSE;
}

void Context::create_instance(const ContextOptions& options) {
  uint32_t count = 0;
  VkResult r = vkEnumerateInstanceExtensionProperties(nullptr, &count, nullptr);
  if (r != VK_SUCCESS)
    throw NoDeviceError("no usable Vulkan loader or driver (" + std::string(result_name(r)) + ")");
  std::vector<VkExtensionProperties> available(count);
  VK_CHECK(vkEnumerateInstanceExtensionProperties(nullptr, &count, available.data()));

  std::vector<const char*> extensions = options.instance_extensions;
  const bool debug_utils = has_extension(available, VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
  if (debug_utils) extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
  std::vector<const char*> layers;
  if (validation_) {
    uint32_t layer_count = 0;
    VK_CHECK(vkEnumerateInstanceLayerProperties(&layer_count, nullptr));
    std::vector<VkLayerProperties> available_layers(layer_count);
    VK_CHECK(vkEnumerateInstanceLayerProperties(&layer_count, available_layers.data()));
    if (std::none_of(available_layers.begin(), available_layers.end(),
                     [](auto& l) { return std::strcmp(l.layerName, kValidationLayer) == 0; }))
      throw std::runtime_error(std::string("--validation needs ") + kValidationLayer +
                               " (Debian package vulkan-validationlayers)");
    if (!debug_utils) throw std::runtime_error("--validation needs VK_EXT_debug_utils");
    layers.push_back(kValidationLayer);
  }

  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "filterlab";
  app.apiVersion = VK_API_VERSION_1_3;

  // Synchronization validation is what proves the graph's derived barriers right.
  VkValidationFeatureEnableEXT enables[] = {VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
  VkValidationFeaturesEXT features{VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT};
  features.enabledValidationFeatureCount = 1;
  features.pEnabledValidationFeatures = enables;

  VkDebugUtilsMessengerCreateInfoEXT messenger{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
  messenger.messageSeverity =
      VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  messenger.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                          VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                          VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
  messenger.pfnUserCallback = &Context::on_message;
  messenger.pUserData = this;
  features.pNext = &messenger;  // also catches messages from instance creation itself

  VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  info.pNext = validation_ ? &features : nullptr;
  info.pApplicationInfo = &app;
  info.enabledLayerCount = static_cast<uint32_t>(layers.size());
  info.ppEnabledLayerNames = layers.data();
  info.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
  info.ppEnabledExtensionNames = extensions.data();
  r = vkCreateInstance(&info, nullptr, &instance_);
  if (r == VK_ERROR_INCOMPATIBLE_DRIVER || r == VK_ERROR_INITIALIZATION_FAILED)
    throw NoDeviceError(std::string("no usable Vulkan driver: vkCreateInstance returned ") + result_name(r));
  VK_CHECK(r);

  if (validation_) {
    auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance_, "vkCreateDebugUtilsMessengerEXT"));
    messenger.pNext = nullptr;
    VK_CHECK(create(instance_, &messenger, nullptr, &messenger_));
  }
  if (debug_utils) {
    set_object_name_ = reinterpret_cast<PFN_vkSetDebugUtilsObjectNameEXT>(
        vkGetInstanceProcAddr(instance_, "vkSetDebugUtilsObjectNameEXT"));
    cmd_begin_label_ = reinterpret_cast<PFN_vkCmdBeginDebugUtilsLabelEXT>(
        vkGetInstanceProcAddr(instance_, "vkCmdBeginDebugUtilsLabelEXT"));
    cmd_end_label_ = reinterpret_cast<PFN_vkCmdEndDebugUtilsLabelEXT>(
        vkGetInstanceProcAddr(instance_, "vkCmdEndDebugUtilsLabelEXT"));
  }
}

void Context::pick_device(const std::string& selector) {
  std::vector<VkPhysicalDevice> devices = enumerate(instance_);
  if (devices.empty()) throw NoDeviceError("no Vulkan device found");

  struct Candidate {
    uint32_t index;
    VkPhysicalDevice device;
    VkPhysicalDeviceProperties props;
    std::string why_not;  // empty when usable
  };
  std::vector<Candidate> candidates;
  for (uint32_t i = 0; i < devices.size(); ++i) {
    Candidate c{i, devices[i], {}, {}};
    vkGetPhysicalDeviceProperties(devices[i], &c.props);
    auto extensions = device_extensions(devices[i]);
    if (c.props.apiVersion < VK_API_VERSION_1_3) c.why_not = "needs Vulkan 1.3";
    else if (!graphics_compute_family(devices[i])) c.why_not = "no graphics+compute queue with timestamps";
    else if (!has_extension(extensions, VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME))
      c.why_not = "no VK_KHR_push_descriptor";
    candidates.push_back(c);
  }

  std::vector<Candidate*> matching;
  if (selector.empty()) {
    for (auto& c : candidates) matching.push_back(&c);
  } else {
    const bool numeric = std::all_of(selector.begin(), selector.end(), ::isdigit);
    for (auto& c : candidates)
      if (numeric ? std::to_string(c.index) == selector
                  : lower(c.props.deviceName).find(lower(selector)) != std::string::npos)
        matching.push_back(&c);
    if (matching.empty()) {
      std::string list;
      for (auto& c : candidates) list += " [" + std::to_string(c.index) + "] " + c.props.deviceName;
      throw NoDeviceError("no Vulkan device matches --device '" + selector + "'; devices:" + list);
    }
  }
  std::stable_sort(matching.begin(), matching.end(), [](Candidate* a, Candidate* b) {
    return type_rank(a->props.deviceType) < type_rank(b->props.deviceType);
  });
  for (Candidate* c : matching) {
    if (!c->why_not.empty()) continue;
    physical_device_ = c->device;
    properties_ = c->props;
    queue_family_ = *graphics_compute_family(c->device);
    vkGetPhysicalDeviceMemoryProperties(physical_device_, &memory_);
    return;
  }
  throw NoDeviceError(std::string("no usable Vulkan device: ") + matching.front()->props.deviceName + " " +
                      matching.front()->why_not);
}

void Context::create_device(const ContextOptions& options) {
  auto available = device_extensions(physical_device_);
  std::vector<const char*> extensions = {VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME};
  if (options.swapchain) extensions.push_back(VK_KHR_SWAPCHAIN_EXTENSION_NAME);

  VkPhysicalDeviceVulkan11Features supported11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
  VkPhysicalDeviceVulkan12Features supported12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  VkPhysicalDeviceVulkan13Features supported13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  VkPhysicalDeviceFeatures2 supported{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  supported.pNext = &supported11;
  supported11.pNext = &supported12;
  supported12.pNext = &supported13;
  vkGetPhysicalDeviceFeatures2(physical_device_, &supported);
  if (!supported13.dynamicRendering || !supported13.synchronization2 || !supported12.timelineSemaphore)
    throw NoDeviceError(std::string(properties_.deviceName) +
                        " lacks dynamic rendering, synchronization2 or timeline semaphores");

  VkPhysicalDeviceVulkan11Features enable11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
  VkPhysicalDeviceVulkan12Features enable12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  VkPhysicalDeviceVulkan13Features enable13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  VkPhysicalDeviceFeatures2 enable{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  enable.pNext = &enable11;
  enable11.pNext = &enable12;
  enable12.pNext = &enable13;
  enable13.dynamicRendering = VK_TRUE;
  enable13.synchronization2 = VK_TRUE;
  enable13.maintenance4 = supported13.maintenance4;  // glslc for Vulkan 1.3 may emit LocalSizeId
  enable12.timelineSemaphore = VK_TRUE;
  enable12.shaderFloat16 = supported12.shaderFloat16;
  enable.features.shaderFloat64 = supported.features.shaderFloat64;  // variance comp.running's sums
  enable11.storageBuffer16BitAccess = supported11.storageBuffer16BitAccess;
  enable.features.shaderStorageImageReadWithoutFormat =
      supported.features.shaderStorageImageReadWithoutFormat;
  enable.features.shaderStorageImageWriteWithoutFormat =
      supported.features.shaderStorageImageWriteWithoutFormat;
  // A scene's translucent draws blend the colour and leave the motion vectors alone.
  enable.features.independentBlend = supported.features.independentBlend;

  // Derivatives in compute shaders (quad grouping) let the derivative filters run in compute.
  // Reported whenever supported, enabled only on request. Debian 12's validation layer does not
  // know the KHR extension (it warns), so under validation the identical NV one is preferred.
  VkPhysicalDeviceComputeShaderDerivativesFeaturesNV derivatives{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COMPUTE_SHADER_DERIVATIVES_FEATURES_NV};
  std::vector<const char*> derivative_extensions = {"VK_KHR_compute_shader_derivatives",
                                                    "VK_NV_compute_shader_derivatives"};
  if (options.validation) std::swap(derivative_extensions[0], derivative_extensions[1]);
  for (const char* name : derivative_extensions) {
    if (!has_extension(available, name)) continue;
    VkPhysicalDeviceFeatures2 query{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    VkPhysicalDeviceComputeShaderDerivativesFeaturesNV probe{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COMPUTE_SHADER_DERIVATIVES_FEATURES_NV};
    query.pNext = &probe;
    vkGetPhysicalDeviceFeatures2(physical_device_, &query);
    if (!probe.computeDerivativeGroupQuads) continue;
    derivatives_extension_ = name;
    if (!options.compute_derivatives) break;
    derivatives.computeDerivativeGroupQuads = VK_TRUE;
    derivatives.pNext = enable13.pNext;
    enable13.pNext = &derivatives;
    extensions.push_back(name);
    report_.compute_derivatives_enabled = true;
    break;
  }

  VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR executable_info{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR};
  if (options.pipeline_statistics &&
      has_extension(available, VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME)) {
    VkPhysicalDeviceFeatures2 query{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    query.pNext = &executable_info;
    vkGetPhysicalDeviceFeatures2(physical_device_, &query);
    if (executable_info.pipelineExecutableInfo) {
      executable_info.pNext = enable13.pNext;
      enable13.pNext = &executable_info;
      extensions.push_back(VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
      report_.pipeline_statistics = true;
    }
  }

  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue.queueFamilyIndex = queue_family_;
  queue.queueCount = 1;
  queue.pQueuePriorities = &priority;
  VkDeviceCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  info.pNext = &enable;
  info.queueCreateInfoCount = 1;
  info.pQueueCreateInfos = &queue;
  info.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
  info.ppEnabledExtensionNames = extensions.data();
  VK_CHECK(vkCreateDevice(physical_device_, &info, nullptr, &device_));
  vkGetDeviceQueue(device_, queue_family_, 0, &queue_);
  cmd_push_descriptor_set = reinterpret_cast<PFN_vkCmdPushDescriptorSetKHR>(
      vkGetDeviceProcAddr(device_, "vkCmdPushDescriptorSetKHR"));
  if (!cmd_push_descriptor_set) throw std::runtime_error("vkCmdPushDescriptorSetKHR is missing");
  report_.shader_float16 = enable12.shaderFloat16;
  report_.shader_float64 = enable.features.shaderFloat64;
  report_.storage_16bit = enable11.storageBuffer16BitAccess;
  report_.storage_read_without_format = enable.features.shaderStorageImageReadWithoutFormat;
  report_.independent_blend = enable.features.independentBlend;
}

namespace {

uint32_t shader_core_count(VkPhysicalDevice gpu) {
  uint32_t count = 0;
  vkEnumerateDeviceExtensionProperties(gpu, nullptr, &count, nullptr);
  std::vector<VkExtensionProperties> available(count);
  vkEnumerateDeviceExtensionProperties(gpu, nullptr, &count, available.data());
  VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
  if (has_extension(available, VK_NV_SHADER_SM_BUILTINS_EXTENSION_NAME)) {
    VkPhysicalDeviceShaderSMBuiltinsPropertiesNV sm{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SM_BUILTINS_PROPERTIES_NV};
    props.pNext = &sm;
    vkGetPhysicalDeviceProperties2(gpu, &props);
    return sm.shaderSMCount;
  }
  if (has_extension(available, VK_AMD_SHADER_CORE_PROPERTIES_EXTENSION_NAME)) {
    VkPhysicalDeviceShaderCorePropertiesAMD core{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CORE_PROPERTIES_AMD};
    props.pNext = &core;
    vkGetPhysicalDeviceProperties2(gpu, &props);
    return core.shaderEngineCount * core.shaderArraysPerEngineCount * core.computeUnitsPerShaderArray;
  }
  return 0;
}

}  // namespace

void Context::fill_report() {
  VkPhysicalDeviceSubgroupProperties subgroup{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
  VkPhysicalDeviceDriverProperties driver{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
  VkPhysicalDeviceSubgroupSizeControlProperties size_control{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES};
  subgroup.pNext = &driver;
  driver.pNext = &size_control;
  VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
  props.pNext = &subgroup;
  vkGetPhysicalDeviceProperties2(physical_device_, &props);
  const VkPhysicalDeviceLimits& limits = properties_.limits;

  uint32_t family_count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(physical_device_, &family_count, nullptr);
  std::vector<VkQueueFamilyProperties> families(family_count);
  vkGetPhysicalDeviceQueueFamilyProperties(physical_device_, &family_count, families.data());

  DeviceReport& r = report_;
  r.name = properties_.deviceName;
  r.driver_name = driver.driverName;
  r.driver_info = driver.driverInfo;
  r.device_type = device_type_name(properties_.deviceType);
  r.api_version = properties_.apiVersion;
  r.driver_version = properties_.driverVersion;
  r.vendor_id = properties_.vendorID;
  r.device_id = properties_.deviceID;
  r.subgroup_size = subgroup.subgroupSize;
  r.min_subgroup_size = size_control.minSubgroupSize ? size_control.minSubgroupSize : r.subgroup_size;
  r.max_subgroup_size = size_control.maxSubgroupSize ? size_control.maxSubgroupSize : r.subgroup_size;
  const std::pair<VkSubgroupFeatureFlagBits, const char*> ops[] = {
      {VK_SUBGROUP_FEATURE_BASIC_BIT, "basic"},
      {VK_SUBGROUP_FEATURE_VOTE_BIT, "vote"},
      {VK_SUBGROUP_FEATURE_ARITHMETIC_BIT, "arithmetic"},
      {VK_SUBGROUP_FEATURE_BALLOT_BIT, "ballot"},
      {VK_SUBGROUP_FEATURE_SHUFFLE_BIT, "shuffle"},
      {VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT, "shuffle_relative"},
      {VK_SUBGROUP_FEATURE_CLUSTERED_BIT, "clustered"},
      {VK_SUBGROUP_FEATURE_QUAD_BIT, "quad"}};
  for (auto [bit, name] : ops)
    if (subgroup.supportedOperations & bit) r.subgroup_operations.push_back(name);
  const std::pair<VkShaderStageFlagBits, const char*> stages[] = {{VK_SHADER_STAGE_VERTEX_BIT, "vertex"},
                                                                  {VK_SHADER_STAGE_FRAGMENT_BIT, "fragment"},
                                                                  {VK_SHADER_STAGE_COMPUTE_BIT, "compute"}};
  for (auto [bit, name] : stages)
    if (subgroup.supportedStages & bit) r.subgroup_stages.push_back(name);
  r.quad_operations_in_all_stages = subgroup.quadOperationsInAllStages;
  r.max_compute_shared_memory = limits.maxComputeSharedMemorySize;
  r.max_compute_workgroup_invocations = limits.maxComputeWorkGroupInvocations;
  r.max_image_dimension_2d = limits.maxImageDimension2D;
  for (uint32_t h = 0; h < memory_.memoryHeapCount; ++h)
    if (memory_.memoryHeaps[h].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT)
      r.device_local_bytes = std::max<uint64_t>(r.device_local_bytes, memory_.memoryHeaps[h].size);
  r.shader_cores = shader_core_count(physical_device_);
  r.timestamp_period_ns = limits.timestampPeriod;
  r.timestamp_valid_bits = families[queue_family_].timestampValidBits;
  r.compute_shader_derivatives = !derivatives_extension_.empty();
  r.compute_derivatives_extension = derivatives_extension_;
}

uint32_t Context::memory_type(uint32_t type_bits, VkMemoryPropertyFlags required) const {
  for (uint32_t i = 0; i < memory_.memoryTypeCount; ++i)
    if ((type_bits & (1u << i)) && (memory_.memoryTypes[i].propertyFlags & required) == required) return i;
  throw std::runtime_error("no Vulkan memory type with the required properties");
}

void Context::set_name(VkObjectType type, uint64_t handle, const std::string& name) const {
  if (!set_object_name_) return;
  VkDebugUtilsObjectNameInfoEXT info{VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT};
  info.objectType = type;
  info.objectHandle = handle;
  info.pObjectName = name.c_str();
  VK_CHECK(set_object_name_(device_, &info));
}

void Context::begin_label(VkCommandBuffer cmd, const std::string& label) const {
  if (!cmd_begin_label_) return;
  VkDebugUtilsLabelEXT info{VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT};
  info.pLabelName = label.c_str();
  cmd_begin_label_(cmd, &info);
}

void Context::end_label(VkCommandBuffer cmd) const {
  if (cmd_end_label_) cmd_end_label_(cmd);
}

}  // namespace filterlab::vk
