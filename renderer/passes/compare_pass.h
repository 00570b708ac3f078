#pragma once
// A/B compare on the GPU, every frame: the metrics of two images (MSE, PSNR, max |A-B| over RGB,
// by a two-step reduction into a host-visible buffer per frame in flight) and a display image
// (split screen, or |A-B| x gain as a heat map, with an optional magnifier square).
//
//   ComparePass compare(env);
//   compare.add_metrics(graph, "a.hdr", "b.hdr", "compare metrics");
//   compare.add_display(graph, "final", "b.final", "compare");  // declares "compare" (the display)
//   compare.settings.mode = CompareSettings::Mode::Difference;  // any time before recording
//   ... after frame k's fence or timeline value: compare.metrics(k % frames_in_flight)
//
// Metrics and display may look at the same pair or at different ones: the window measures its HDR
// chain outputs and shows their tonemapped images.
//
// The display holds the images' stored values (no tonemap: compare display-ready images, or HDR
// ones where 0..1 is what matters), alpha 1.
//
// A reduction is two graph passes, NAME (per-tile partial sums) and "NAME finish" (their total),
// through the graph buffer "NAME partials" into "NAME result", so the graph derives every barrier
// between them, the display and the next frame. The metrics' result is imported from this object
// (one host-visible buffer per frame in flight) and read by the host after the frame.
#include "common/metrics.h"
#include "graph/graph.h"
#include "passes/flip_pass.h"
#include "passes/pass_env.h"
#include "vk/resources.h"

#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace filterlab::passes {

// What the UI edits between frames; read when the frame is recorded.
struct CompareSettings {
  // SideBySide: the middle half of A (columns W/4 .. 3W/4) left of the same columns of B, with a
  // 1-pixel cyan line between them where divider_line is on. Flip: the FLIP map of A against B in
  // magma (passes/flip_pass.h), where the display has one (add_display), else the split view.
  enum class Mode : uint32_t { Split, Difference, SideBySide, Flip };
  enum class Source : uint32_t { A, B, Difference };

  Mode mode = Mode::Split;
  // Split: columns x < divider_x show A, the others B; with divider_line, column divider_x is a
  // 1-pixel cyan line.
  int32_t divider_x = 0;
  bool divider_line = true;
  // Difference: max over R, G, B of |A-B|, times gain, on the ramp; gain <= 0 picks
  // 1 / (this frame's max |A-B|), so the largest difference is white.
  float gain = 0.0f;
  // Magnifier: a square of inset_size pixels (its 1-pixel cyan border included; clamped to
  // 3..4096) centred on the cursor pixel (clamped to the image), shifted to stay inside the image
  // where it fits. Each texel of the source around the cursor becomes zoom x zoom pixels
  // (nearest; zoom clamped to 1..64). It also shows over the difference view. Its Difference
  // source is the FLIP map in the flip view.
  // Flip: the map of the HDR pair (add_display's flip_map_hdr) rather than of the displayed one.
  bool flip_of_hdr = false;
  bool magnifier = false;
  Source magnifier_source = Source::A;
  int32_t cursor_x = 0, cursor_y = 0;
  uint32_t zoom = 4;
  uint32_t inset_size = 128;
};

// The pixel of A and B that the display shows at (x, y), as compare_common.glsl picks it: (x, y)
// itself, but in the side-by-side view, which shows the middle halves of A and B.
std::array<int32_t, 2> compared_pixel(const CompareSettings& s, VkExtent2D extent, int32_t x, int32_t y);

// The magnifier's square in the display's pixels, as compare_common.glsl places it.
struct MagnifierSquare {
  int32_t x = 0, y = 0, side = 0;
};
MagnifierSquare magnifier_square(const CompareSettings& s, VkExtent2D extent);

// "split", "diff", "side", "flip": the --compare-mode and preset spelling of CompareSettings::Mode.
const char* compare_mode_name(CompareSettings::Mode mode);
std::optional<CompareSettings::Mode> parse_compare_mode(const std::string& name);

// Whether a metrics reduction also takes the SSIM (compare_ssim.comp: the definition of
// common::ssim, mean over R, G, B; none for an image under 11x11).
enum class Ssim : bool { Off, On };

// A reduction's second step (compare_finish.comp), which the FLIP pass shares: "<name> finish"
// folds the vec4 partials "<name> partials" (count(extent of `image`) of them: xyz added, w the
// largest) into "<name> result", and records work only where `needed`.
void add_reduction_finish(const PassEnv& env, graph::RenderGraph& graph, const std::string& image,
                          const std::string& name, std::function<uint32_t(VkExtent2D)> count,
                          std::function<bool(graph::PassContext&)> needed);
// What compare_finish.comp left in a host-visible result buffer (kReductionResultBytes): the sums
// and the largest w, the image's size and the frame; nullopt where it never wrote.
struct ReductionTotals {
  std::array<double, 4> sums{};
  VkExtent2D extent{};
  uint64_t frame = 0;
};
inline constexpr VkDeviceSize kReductionResultBytes = 32;
std::optional<ReductionTotals> read_reduction(const vk::Buffer& result);

struct CompareMetrics {
  common::ImageMetrics values;  // over R, G, B: channels 3; SSIM where the reduction takes it
  std::array<double, 3> channel_mse{};
  std::optional<FlipResult> flip;  // where the caller measured FLIP in the same frame (FlipPass)
  uint64_t frame = 0;  // the frame these values were computed in
  VkExtent2D extent{};
};

class ComparePass {
 public:
  // display_format: VK_FORMAT_R8G8B8A8_UNORM (stored values clamped to 0..1), R16G16B16A16_SFLOAT
  // or R32G32B32A32_SFLOAT (exact). Throws std::invalid_argument for another format.
  explicit ComparePass(const PassEnv& env, VkFormat display_format = VK_FORMAT_R8G8B8A8_UNORM);

  // The metrics reduction `pass_name` reading A and B (never culled: the host reads its result
  // through metrics()). At most one per graph: every metrics pass of one ComparePass writes the
  // same per-slot results. With Ssim::On, also the passes "<pass_name> ssim" and "<pass_name> ssim
  // finish", into their own per-slot results.
  void add_metrics(graph::RenderGraph& graph, const std::string& a, const std::string& b,
                   const std::string& pass_name, Ssim ssim = Ssim::Off);

  // Declares `output` (display_format, A's size) and the display pass `output` reading A and B,
  // and the FLIP maps where given (R32F images of A's size, FlipPass's): of the pair, and of the
  // HDR pair it was tonemapped from (settings.flip_of_hdr picks).
  // Its automatic gain (settings.gain <= 0) is 1 / max |A-B| of this pair in this frame, from the
  // reduction "<output> gain", which records work only in frames whose settings show a
  // difference with it (idle in the timings otherwise): the pair need not be the metrics' pair.
  void add_display(graph::RenderGraph& graph, const std::string& a, const std::string& b,
                   const std::string& output, const std::string& flip_map = {},
                   const std::string& flip_map_hdr = {});

  // In both, A and B may name the same image. Their sizes must match; recording throws GraphError
  // otherwise. One ComparePass serves one graph at a time (its metrics buffers are per object).

  // The metrics computed by the frame last recorded in `slot` (frame % frames_in_flight). Call only
  // after that frame has finished (its fence or timeline value); nullopt before the slot's first
  // frame. Throws std::out_of_range for a slot >= frames_in_flight.
  std::optional<CompareMetrics> metrics(uint32_t slot) const;

  CompareSettings settings;

 private:
  // Declares the reduction `name` of A against B into the buffer "<name> result" (declared by the
  // caller): sums of (A-B)^2 per channel and max |A-B|. It records work only when `needed()`, and
  // its two passes skip (PassContext::skip) in the other frames.
  void add_reduction(graph::RenderGraph& graph, const std::string& a, const std::string& b,
                     const std::string& name, std::function<bool()> needed);

  // The SSIM's partials (a vec4 per 16x16 positions) folded by the finish into "<name> ssim result".
  void add_ssim(graph::RenderGraph& graph, const std::string& a, const std::string& b,
                const std::string& name);

  PassEnv env_;
  VkFormat display_format_;
  std::string display_shader_;
  std::vector<vk::Buffer> results_;       // per frame in flight, host-visible
  std::vector<vk::Buffer> ssim_results_;  // the same, for the SSIM (written where it is taken)
};

}  // namespace filterlab::passes
