#pragma once
// Facts about the image formats the graph uses. Pure functions: no device needed.
#include <vulkan/vulkan.h>

#include <cstdint>

namespace filterlab::vk {

bool is_depth_format(VkFormat format);
uint32_t format_texel_size(VkFormat format);  // bytes per texel; 0 for formats not read back
const char* format_name(VkFormat format);     // short, e.g. "rgba16f"

}  // namespace filterlab::vk
