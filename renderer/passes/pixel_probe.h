#pragma once
// The window's pixel inspector: every frame, an invocation per pixel (the inspected one and the
// cursor's, which the magnifier shows) reads four images there (A's and B's linear outputs, A's and
// B's displayed images) into that frame's host-visible buffer, read by the host once the frame has
// finished, so nothing waits (a readback ring of frames in flight).
//
//   PixelProbe probe(env);
//   probe.add_to(graph, {"gaussian", "b.copy", "final", "b.final"}, "inspect");
//   probe.pixel = {x, y};  // any time before recording
//   ... after frame k's fence: probe.read(k % frames_in_flight)
#include "graph/graph.h"
#include "passes/pass_env.h"
#include "vk/resources.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace filterlab::passes {

struct PixelValues {
  int32_t x = 0, y = 0;                        // the pixel read (clamped to each image's size there)
  std::array<std::array<float, 4>, 4> rgba{};  // per image, as stored (8-bit images: value / 255)
  uint64_t frame = 0;                          // the frame they are of
};

class PixelProbe {
 public:
  explicit PixelProbe(const PassEnv& env);
  // The pass `name` reading `images` (four: an image may repeat).
  void add_to(graph::RenderGraph& graph, const std::array<std::string, 4>& images, const std::string& name);
  enum class Which : uint32_t { Inspected, Cursor };
  // The values of the frame slot `slot` last recorded, once it finished; none before its first.
  std::optional<PixelValues> read(uint32_t slot, Which which = Which::Inspected) const;

  // Read when the frame is recorded.
  std::array<int32_t, 2> pixel{0, 0};   // the inspected pixel (pinned, or the cursor's)
  std::array<int32_t, 2> cursor{0, 0};  // the cursor's

 private:
  PassEnv env_;
  std::vector<vk::Buffer> results_;  // per frame in flight, host-visible
};

}  // namespace filterlab::passes
