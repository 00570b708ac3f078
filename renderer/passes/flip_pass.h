#pragma once
// FLIP on the GPU (common/flip.h is the definition, in double): the per-pixel map of how different
// `test` looks from `reference` when flipped between, and its mean and maximum.
//
//   FlipPass flip(env, common::default_pixels_per_degree());
//   flip.add_ldr(graph, "final", "b.final", "flip", common::FlipInput::Srgb);  // declares "flip" (the map)
//   ... after frame k's fence or timeline value: flip.result(k % frames_in_flight)
//
// LDR-FLIP is two passes, "<name> rows" and "<name> columns" (passes_config.h says what each does),
// then the reduction "<name> reduce" and "<name> finish". HDR-FLIP runs the two for each exposure,
// "<name> rows 1" ... "<name> columns N", the columns keeping the largest FLIP per pixel; where the
// exposures are not given, the reference's are found on the GPU every frame first ("<name> range
// ...": its largest and exact median luminance), and the passes of exposures past the count of the
// slot's previous frame record nothing (FlipResult::complete says where a frame needed more). fp32
// throughout; the tests hold it to the double reference (docs/flip.md gives the bound).
#include "common/flip.h"
#include "graph/graph.h"
#include "passes/pass_env.h"
#include "vk/context.h"
#include "vk/resources.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace filterlab::passes {

struct FlipResult {
  double mean = 0, max = 0;
  VkExtent2D extent{};
  uint64_t frame = 0;  // the frame these values were computed in
  bool hdr = false;
  double ppd = 0;
  // HDR-FLIP: the exposures of the frame; count 0 where the reference has no range (its largest
  // or median luminance is not above 0: no FLIP, the map 0).
  common::FlipExposures exposures;
  bool complete = true;  // HDR-FLIP: every one of them was recorded (see above)
  const char* kind() const { return hdr ? "HDR-FLIP" : "LDR-FLIP"; }
};

// Why `extent` is too large for FLIP on this device (its intermediate buffers, a vec4 a pixel each,
// past maxStorageBufferRange), or nullopt.
std::optional<std::string> flip_does_not_fit(const vk::Context& vk, VkExtent2D extent);

class FlipPass {
 public:
  // Throws std::invalid_argument for a ppd outside (0, common::kMaxPixelsPerDegree].
  FlipPass(const PassEnv& env, double ppd);

  // LDR-FLIP of `test` against `reference` (the same size; RGB, alpha dropped), read as `input`
  // says. Declares the map `name` (R32_SFLOAT, the reference's size) and the buffer "<name> result".
  // `needed`: in frames where it says no, the passes record nothing (the map keeps what it had).
  void add_ldr(graph::RenderGraph& graph, const std::string& reference, const std::string& test,
               const std::string& name, common::FlipInput input, std::function<bool()> needed = {});
  // HDR-FLIP of linear HDR images at the given exposures (1 to 64), or at the reference's.
  void add_hdr(graph::RenderGraph& graph, const std::string& reference, const std::string& test,
               const std::string& name, const std::optional<common::FlipExposures>& exposures,
               std::function<bool()> needed = {});

  // The mean and maximum of the map made by the frame last recorded in `slot`; call only after that
  // frame has finished. nullopt before the slot's first frame. One FlipPass serves one map.
  std::optional<FlipResult> result(uint32_t slot) const;

  double ppd() const { return ppd_; }
  // The filters' radius: the larger of the CSF's and the features' (the passes' shared memory).
  uint32_t radius() const { return radius_; }

 private:
  // Once per FlipPass, before its passes: imports "<name> exposures" (exposures_).
  void begin(graph::RenderGraph& graph, const std::string& name);
  // The passes: `source` FLIP_INPUT_*, `passes` exposures (1 for LDR-FLIP).
  void add(graph::RenderGraph& graph, const std::string& reference, const std::string& test,
           const std::string& name, uint32_t source, uint32_t passes, std::function<bool()> needed);
  // The range passes, writing "<name> exposures".
  void add_range(graph::RenderGraph& graph, const std::string& reference, const std::string& name,
                 std::function<bool()> needed);
  // The exposures to record in `slot`: the count the slot's previous frame found (all before one).
  uint32_t planned_exposures(uint32_t slot) const;

  PassEnv env_;
  double ppd_;
  uint32_t radius_ = 0;
  float cmax_ = 0;
  bool hdr_ = false, range_on_gpu_ = false, added_ = false;
  vk::Buffer kernels_;                 // the rows' taps, then the columns', two vec4 each
  std::vector<vk::Buffer> results_;    // per frame in flight, host-visible
  std::vector<vk::Buffer> exposures_;  // the same: FlipExposuresGpu (given, or the GPU's)
  std::vector<uint32_t> recorded_;     // per slot: exposures recorded in its last frame
};

// FLIP of two images (RGB, one size) on a device, as one frame of a graph of their own: uploaded as
// `format` (RGBA32F or RGBA16F), LDR-FLIP read as `input` where `exposures` is nullopt and `hdr` is
// false, HDR-FLIP at `exposures` (or, nullopt, at those the GPU finds) where `hdr` is true. The map
// row-major, and the result.
struct FlipOfImages {
  std::vector<float> map;
  FlipResult result;
};
FlipOfImages flip_images(const PassEnv& env, const io::ImageF& reference, const io::ImageF& test, double ppd,
                         bool hdr, common::FlipInput input,
                         const std::optional<common::FlipExposures>& exposures,
                         VkFormat format = VK_FORMAT_R32G32B32A32_SFLOAT);

}  // namespace filterlab::passes
