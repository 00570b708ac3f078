#pragma once
// The linear blur family: one kernel definition (filters/kernel.h), many methods, each checked
// against the same CPU reference. `--chain gaussian.<method>:radius=R[:sigma=S][:kernel=K][:precision=P]`
// The methods live beside this file, one file per family (blur_fragment.cpp, blur_compute.cpp,
// blur_tiled.cpp, blur_quad.cpp); blur_methods.h is the interface they implement.
#include "filters/chain.h"
#include "common/kernel.h"
#include "common/roi.h"
#include "vk/resources.h"

#include <optional>

namespace filterlab::filters {

enum class Precision { Fp16, Fp32 };

// Design cost per output pixel, for a given radius (and the method's fixed tile size).
struct MethodCost {
  double fetches = 0;        // texture or image reads from device memory (or its caches)
  double shared_reads = 0;   // shared-memory loads
  double shared_writes = 0;  // shared-memory stores
};

// Whether a method runs on a device, and up to which radius.
struct MethodSupport {
  std::string reason;  // empty: available
  int max_radius = common::kMaxRadius;
  bool available() const { return reason.empty(); }
};

struct BlurSettings;
class BlurPasses;
struct BlurEnv;

struct BlurMethod {
  const char* name;
  const char* stage;  // "fragment" or "compute"
  bool exact;         // false: relies on hardware bilinear weights, coarse derivatives or half arithmetic
  int passes;
  const char* description;
  MethodCost (*cost)(int radius);
  MethodSupport (*support)(const vk::Context& device, const BlurSettings& settings);
  std::unique_ptr<BlurPasses> (*create)(const BlurEnv& env);
  bool takes_roi = false;  // accepts src_roi / dst_roi
};
// Every method of every family, in a stable order.
const std::vector<BlurMethod>& blur_methods();
const BlurMethod* find_blur_method(const std::string& name);

struct BlurSettings {
  const BlurMethod* method = nullptr;
  common::KernelSpec kernel;
  Precision precision = Precision::Fp16;
  std::optional<common::Roi> src_roi, dst_roi;  // comp.tiled only; both or neither, same size
  bool poison_outside = false;          // outside=poison: fill what dst_roi leaves with a sentinel
  VkFormat format() const {
    return precision == Precision::Fp32 ? VK_FORMAT_R32G32B32A32_SFLOAT : VK_FORMAT_R16G16B16A16_SFLOAT;
  }
};

// Validates method and parameters; throws ChainError naming the problem. Device support is
// checked when the filter is created (BlurFilter), since it needs the device.
BlurSettings parse_blur_settings(const FilterStep& step);

class BlurFilter : public Filter {
 public:
  // Throws ChainError when the method is unavailable on this device or cannot serve the radius.
  BlurFilter(const passes::PassEnv& env, const BlurSettings& settings);
  ~BlurFilter() override;
  std::string add_to(graph::RenderGraph& graph, const std::string& input, const std::string& name) override;
  const BlurSettings& settings() const { return settings_; }

 private:
  passes::PassEnv env_;
  BlurSettings settings_;
  vk::Buffer weights_, taps_;
  std::unique_ptr<BlurPasses> passes_;
};

}  // namespace filterlab::filters
