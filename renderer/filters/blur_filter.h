#pragma once
// The linear blur family: one kernel definition (filters/kernel.h), many methods, each checked
// against the same CPU reference. `--chain gaussian.<method>:radius=R[:sigma=S][:kernel=K][:precision=P]`
#include "filters/chain.h"
#include "filters/kernel.h"
#include "vk/resources.h"

namespace filterlab::filters {

struct BlurMethod {
  const char* name;
  const char* stage;  // "fragment" or "compute"
  bool exact;         // false: relies on hardware bilinear weights or coarse derivatives
  int passes;
  double (*fetches_per_pixel)(int radius);
  const char* description;
};
const std::vector<BlurMethod>& blur_methods();

enum class Precision { Fp16, Fp32 };

struct BlurSettings {
  const BlurMethod* method = nullptr;
  KernelSpec kernel;
  Precision precision = Precision::Fp16;
  VkFormat format() const {
    return precision == Precision::Fp32 ? VK_FORMAT_R32G32B32A32_SFLOAT : VK_FORMAT_R16G16B16A16_SFLOAT;
  }
};

// Validates method and parameters; throws ChainError naming the problem.
BlurSettings parse_blur_settings(const FilterStep& step);

class BlurFilter : public Filter {
public:
  BlurFilter(const passes::PassEnv& env, const BlurSettings& settings);
  std::string add_to(graph::RenderGraph& graph, const std::string& input, const std::string& name) override;
  const BlurSettings& settings() const { return settings_; }

private:
  std::unique_ptr<vk::Pipeline> make_pipeline(const std::string& shader, uint32_t extra_constant);
  passes::PassEnv env_;
  BlurSettings settings_;
  vk::Buffer weights_, taps_;
  std::vector<std::unique_ptr<vk::Pipeline>> pipelines_;  // one per pass
};

}  // namespace filterlab::filters
