#pragma once
// Textures a scene brings (glTF's images): RGBA8, level 0 uploaded and the other levels built on
// the GPU, each a linear blit of the one above (a 2x2 box where the size halves exactly; an sRGB
// image is filtered in linear light, as the format says).
#include "vk/resources.h"

#include <cstdint>
#include <string>
#include <vector>

namespace filterlab::vk {

// floor(log2(max(width, height))) + 1: every level down to 1x1.
uint32_t full_mip_count(uint32_t width, uint32_t height);

// The texture, in SHADER_READ_ONLY_OPTIMAL, ready for fragment shaders of later submissions (it is
// recorded and waited for here, outside any graph: nothing tracks it but this function).
Image upload_texture(const Context& ctx, const std::vector<uint8_t>& rgba, uint32_t width, uint32_t height,
                     bool srgb, const std::string& name);

// Bytes a texture of this size takes with its mips (for the memory check before any upload).
uint64_t texture_bytes(uint32_t width, uint32_t height);

}  // namespace filterlab::vk
