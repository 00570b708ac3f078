#pragma once
// An image read back from the GPU (Executor::read_image) and its values as floats.
#include "io/image_io.h"

#include <vulkan/vulkan.h>

#include <cstdint>
#include <vector>

namespace filterlab::graph {

struct Readback {
  VkFormat format;
  VkExtent2D extent;
  std::vector<uint8_t> bytes;  // tightly packed rows, top-down
};

// The texels as floats: RGBA16F/32F, RG16F/32F, R16F/32F and D32 keep their channels and values,
// RGBA8 is value / 255. Throws std::runtime_error for other formats.
io::ImageF to_float_image(const Readback& readback);
// Whether to_float_image takes images of this format (a capture checks before any frame runs).
bool converts_to_float(VkFormat format);

}  // namespace filterlab::graph
