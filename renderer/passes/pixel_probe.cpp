#include "passes/pixel_probe.h"

#include "passes/passes_config.h"
#include "passes/simple_pass.h"

#include <cstring>
#include <stdexcept>

namespace filterlab::passes {
namespace {

// Mirrors pixel_probe.comp's buffer and push constants.
struct ProbeGpu {
  float values[PROBE_IMAGES][4];
  uint32_t x, y, frame_low, frame_high;
};
struct ResultGpu {
  ProbeGpu probes[PROBE_PIXELS];
};
struct Push {
  int32_t pixels[PROBE_PIXELS][2];
  uint32_t frame_low, frame_high;
};
static_assert(PROBE_PIXELS == 2, "Push and the constants below list the pixels");
constexpr uint32_t kNeverWritten = 0xffffffffu;

}  // namespace

PixelProbe::PixelProbe(const PassEnv& env) : env_(env) {
  for (uint32_t i = 0; i < env.frames_in_flight; ++i) {
    results_.emplace_back(env.vk, sizeof(ResultGpu), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, true,
                          "pixel probe " + std::to_string(i));
    ResultGpu never{};
    for (ProbeGpu& p : never.probes) p.frame_low = p.frame_high = kNeverWritten;
    std::memcpy(results_.back().mapped(), &never, sizeof never);
  }
}

void PixelProbe::add_to(graph::RenderGraph& graph, const std::array<std::string, 4>& images,
                        const std::string& name) {
  const std::string result = name + " result";
  graph.import_buffer(result, per_slot(results_), graph::BufferUsage::HostRead);
  SimplePass pass(env_, name, ComputeShader{"passes/pixel_probe.comp"});
  for (uint32_t i = 0; i < PROBE_IMAGES; ++i) pass.sample(BINDING_PROBE_IMAGE_0 + i, images[i]);
  pass.graph_buffer(BINDING_PROBE_RESULT, result, graph::BufferUsage::StorageWriteCompute)
      .constants_from<Push>([this](graph::PassContext& ctx) {
        return Push{
            {{pixel[0], pixel[1]}, {cursor[0], cursor[1]}}, uint32_t(ctx.frame), uint32_t(ctx.frame >> 32)};
      })
      .dispatch([](graph::PassContext&) {
        return std::array<uint32_t, 2>{1, 1};
      })
      .add_to(graph);
}

std::optional<PixelValues> PixelProbe::read(uint32_t slot, Which which) const {
  if (slot >= results_.size())
    throw std::out_of_range("PixelProbe::read: no frame slot " + std::to_string(slot));
  ResultGpu all;
  std::memcpy(&all, results_[slot].mapped(), sizeof all);
  const ProbeGpu& r = all.probes[static_cast<uint32_t>(which)];
  if (r.frame_low == kNeverWritten && r.frame_high == kNeverWritten) return std::nullopt;
  PixelValues out;
  out.x = int32_t(r.x);
  out.y = int32_t(r.y);
  out.frame = uint64_t(r.frame_low) | (uint64_t(r.frame_high) << 32);
  for (int i = 0; i < PROBE_IMAGES; ++i)
    for (int c = 0; c < 4; ++c) out.rgba[i][c] = r.values[i][c];
  return out;
}

}  // namespace filterlab::passes
