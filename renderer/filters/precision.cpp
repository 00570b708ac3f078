#include "filters/precision.h"

namespace filterlab::filters {

Param precision_param() {
  Param p;
  p.name = "precision";
  p.type = ParamType::Choice;
  p.choices = {"fp16", "fp32"};
  p.fallback = "fp16";
  p.help = "the storage format of the step's images: RGBA16F or RGBA32F";
  return p;
}

VkFormat precision_format(const std::string& precision) {
  return precision == "fp32" ? VK_FORMAT_R32G32B32A32_SFLOAT : VK_FORMAT_R16G16B16A16_SFLOAT;
}

VkFormat precision_format(const ParamValues& params) {
  return precision_format(params.choice("precision"));
}

const char* precision_variant(VkFormat format) {
  return format == VK_FORMAT_R32G32B32A32_SFLOAT ? "fp32" : "fp16";
}

}  // namespace filterlab::filters
