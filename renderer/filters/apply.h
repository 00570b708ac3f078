#pragma once
// Runs one filter step on CPU images: upload -> filter -> read back. Used by `filterlab filter`,
// `quality` and the tests.
#include "filters/chain.h"
#include "io/image_io.h"

namespace filterlab::filters {

// Each input is uploaded as `input_format` (RGBA32F keeps it exact); each result has 4 channels.
// The step sees a still image: no depth or motion (a family that reads them is refused), and a
// fixed camera on its first frame. It is built once for all the inputs, so with a library in `env`
// its pipelines are built once. Throws ChainError for a step the registry or the device refuses.
std::vector<io::ImageF> apply_to_each(const passes::PassEnv& env, const std::vector<io::ImageF>& inputs,
                                      const FilterStep& step,
                                      VkFormat input_format = VK_FORMAT_R32G32B32A32_SFLOAT,
                                      const Registry& registry = filters::registry());

io::ImageF apply_filter(const vk::Context& ctx, const vk::ShaderSource& shaders, const io::ImageF& input,
                        const FilterStep& step, VkFormat input_format = VK_FORMAT_R32G32B32A32_SFLOAT,
                        const Registry& registry = filters::registry());

// The same, reading back more of the step's images by name ("variance.stddev": the step is named
// after its family). Throws ChainError for a name the step's graph lacks, listing the ones it has,
// before anything runs.
struct StepImages {
  io::ImageF output;
  std::vector<io::ImageF> named;  // in the order asked
};
StepImages apply_filter_reading(const vk::Context& ctx, const vk::ShaderSource& shaders,
                                const io::ImageF& input, const FilterStep& step,
                                const std::vector<std::string>& images,
                                VkFormat input_format = VK_FORMAT_R32G32B32A32_SFLOAT);

}  // namespace filterlab::filters
