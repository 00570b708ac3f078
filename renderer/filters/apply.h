#pragma once
// Runs one filter step on a CPU image: upload -> filter -> read back. Used by the tests and by
// `filterlab filter` to filter an image file.
#include "filters/chain.h"
#include "io/image_io.h"

namespace filterlab::filters {

// The input is uploaded as `input_format` (RGBA32F keeps it exact); the result has 4 channels.
io::ImageF apply_filter(const vk::Context& ctx, const vk::ShaderSource& shaders, const io::ImageF& input,
                        const FilterStep& step, VkFormat input_format = VK_FORMAT_R32G32B32A32_SFLOAT);

}  // namespace filterlab::filters
