#include "vk/formats.h"

namespace filterlab::vk {

bool is_depth_format(VkFormat format) {
  return format == VK_FORMAT_D32_SFLOAT || format == VK_FORMAT_D16_UNORM ||
         format == VK_FORMAT_D24_UNORM_S8_UINT || format == VK_FORMAT_D32_SFLOAT_S8_UINT;
}

uint32_t format_texel_size(VkFormat format) {
  switch (format) {
    case VK_FORMAT_R8G8B8A8_UNORM:
    case VK_FORMAT_R8G8B8A8_SRGB:
    case VK_FORMAT_B8G8R8A8_UNORM:
    case VK_FORMAT_B8G8R8A8_SRGB:
    case VK_FORMAT_R32_SFLOAT:
    case VK_FORMAT_D32_SFLOAT:
    case VK_FORMAT_R16G16_SFLOAT:
      return 4;
    case VK_FORMAT_R16_SFLOAT: return 2;
    case VK_FORMAT_R16G16B16A16_SFLOAT:
    case VK_FORMAT_R32G32_SFLOAT:
      return 8;
    case VK_FORMAT_R32G32B32A32_SFLOAT: return 16;
    default: return 0;
  }
}

const char* format_name(VkFormat format) {
  switch (format) {
    case VK_FORMAT_R8G8B8A8_UNORM: return "rgba8";
    case VK_FORMAT_R8G8B8A8_SRGB: return "rgba8_srgb";
    case VK_FORMAT_B8G8R8A8_UNORM: return "bgra8";
    case VK_FORMAT_B8G8R8A8_SRGB: return "bgra8_srgb";
    case VK_FORMAT_R16_SFLOAT: return "r16f";
    case VK_FORMAT_R16G16_SFLOAT: return "rg16f";
    case VK_FORMAT_R16G16B16A16_SFLOAT: return "rgba16f";
    case VK_FORMAT_R32_SFLOAT: return "r32f";
    case VK_FORMAT_R32G32_SFLOAT: return "rg32f";
    case VK_FORMAT_R32G32B32A32_SFLOAT: return "rgba32f";
    case VK_FORMAT_D32_SFLOAT: return "d32";
    default: return "other";
  }
}

}  // namespace filterlab::vk
