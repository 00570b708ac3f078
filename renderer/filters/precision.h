#pragma once
// The `precision` parameter every family's images take: fp16 (RGBA16F, the default) or fp32
// (RGBA32F), and the shader variant ("fp16", "fp32") that writes that format.
#include "filters/family.h"

#include <vulkan/vulkan.h>

namespace filterlab::filters {

Param precision_param();
VkFormat precision_format(const std::string& precision);  // "fp16" or "fp32"
VkFormat precision_format(const ParamValues& params);     // of the step's `precision`
const char* precision_variant(VkFormat format);           // "fp16" or "fp32"

}  // namespace filterlab::filters
