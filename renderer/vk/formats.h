#pragma once
// Facts about the image formats the graph uses. Pure functions: no device needed.
#include <vulkan/vulkan.h>

#include <cstdint>

namespace filterlab::vk {

bool is_depth_format(VkFormat format);
bool format_is_half(VkFormat format);         // 16-bit float channels (R16F, RG16F, RGBA16F)
uint32_t format_texel_size(VkFormat format);  // bytes per texel; 0 for formats not read back
const char* format_name(VkFormat format);     // short, e.g. "rgba16f"

// IEEE half <-> float, for uploads to and readbacks of 16-bit float images. float_to_half rounds
// to nearest even, keeps subnormals, and maps overflow to infinity.
float half_to_float(uint16_t half);
uint16_t float_to_half(float value);

}  // namespace filterlab::vk
