#include "vk/formats.h"

#include <cstring>

namespace filterlab::vk {

bool is_depth_format(VkFormat format) {
  return format == VK_FORMAT_D32_SFLOAT || format == VK_FORMAT_D16_UNORM ||
         format == VK_FORMAT_D24_UNORM_S8_UINT || format == VK_FORMAT_D32_SFLOAT_S8_UINT;
}

bool format_is_half(VkFormat format) {
  return format == VK_FORMAT_R16_SFLOAT || format == VK_FORMAT_R16G16_SFLOAT ||
         format == VK_FORMAT_R16G16B16A16_SFLOAT;
}

uint32_t format_texel_size(VkFormat format) {
  switch (format) {
    case VK_FORMAT_R8G8B8A8_UNORM:
    case VK_FORMAT_R8G8B8A8_SRGB:
    case VK_FORMAT_B8G8R8A8_UNORM:
    case VK_FORMAT_B8G8R8A8_SRGB:
    case VK_FORMAT_R32_SFLOAT:
    case VK_FORMAT_D32_SFLOAT:
    case VK_FORMAT_R16G16_SFLOAT: return 4;
    case VK_FORMAT_R16_SFLOAT: return 2;
    case VK_FORMAT_R16G16B16A16_SFLOAT:
    case VK_FORMAT_R32G32_SFLOAT:
    case VK_FORMAT_R32G32_UINT: return 8;
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
    case VK_FORMAT_R32G32_UINT: return "rg32ui";
    case VK_FORMAT_R32G32B32A32_SFLOAT: return "rgba32f";
    case VK_FORMAT_D32_SFLOAT: return "d32";
    default: return "other";
  }
}

float half_to_float(uint16_t h) {
  const uint32_t sign = (h & 0x8000u) << 16;
  uint32_t exponent = (h >> 10) & 0x1f;
  uint32_t mantissa = h & 0x3ffu;
  uint32_t bits;
  if (exponent == 0) {
    if (mantissa == 0) {
      bits = sign;
    } else {  // subnormal: renormalize
      exponent = 127 - 15 + 1;
      while (!(mantissa & 0x400u)) {
        mantissa <<= 1;
        --exponent;
      }
      bits = sign | (exponent << 23) | ((mantissa & 0x3ffu) << 13);
    }
  } else if (exponent == 31) {
    bits = sign | 0x7f800000u | (mantissa << 13);
  } else {
    bits = sign | ((exponent + 127 - 15) << 23) | (mantissa << 13);
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

uint16_t float_to_half(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  const uint32_t sign = (bits >> 16) & 0x8000u;
  const int exponent = static_cast<int>((bits >> 23) & 0xff) - 127 + 15;
  uint32_t mantissa = bits & 0x7fffffu;
  if (((bits >> 23) & 0xff) == 0xff) return uint16_t(sign | 0x7c00u | (mantissa ? 0x200u : 0));
  if (exponent >= 31) return uint16_t(sign | 0x7c00u);
  if (exponent <= 0) {  // subnormal or zero, round to nearest even
    if (exponent < -10) return uint16_t(sign);
    mantissa |= 0x800000u;
    const uint32_t shift = static_cast<uint32_t>(14 - exponent);
    uint32_t half = mantissa >> shift;
    const uint32_t rest = mantissa & ((1u << shift) - 1), halfway = 1u << (shift - 1);
    if (rest > halfway || (rest == halfway && (half & 1))) ++half;
    return uint16_t(sign | half);
  }
  uint32_t half = sign | (uint32_t(exponent) << 10) | (mantissa >> 13);
  const uint32_t rest = mantissa & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (half & 1))) ++half;  // may carry into the exponent
  return uint16_t(half);
}

}  // namespace filterlab::vk
