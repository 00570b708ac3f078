#pragma once
// Shows any image of the render graph in the viewport: one compute pass (two more before it for a
// depth view's automatic range) reads mip 0 of a source image (texelFetch, no filtering) and
// writes an RGBA8_UNORM image of its size holding sRGB-encoded values, ready to present. How it
// shows the source follows from the source's declared format (kind_for), with the same mappings as
// `--capture NAME=FILE.png`:
//
//   Hdr (float colour: RGBA16F, RGBA32F, R16F, R32F, B10G11R11): exposure, then the tonemapping
//     curve and sRGB encoding of tonemap.comp (shared through display_common.glsl); negative
//     values show as 0. One-channel formats show as gray. Matches passes::hdr_to_display.
//   Display (8-bit UNORM or sRGB colour, e.g. "final"): the stored values as they are, alpha
//     included (bit-exact for UNORM; _SRGB formats are decoded by the sampler and re-encoded).
//   Depth (D32_SFLOAT and the other depth formats): the scene renders with glm::perspectiveRH_ZO,
//     not reversed: 0 is the near plane, 1 the far plane and the clear value. Raw depth is an
//     affine function of 1/distance, so a linear ramp over the raw values spends most gray levels
//     on near geometry while far geometry stays distinguishable, and it needs no near/far planes.
//     Geometry (depth < 1) goes from white at depth_lo to dark gray (48/255) at depth_hi, clamped,
//     so the farthest geometry is never mistaken for clear pixels (depth >= 1, or NaN), which are
//     black. depth_hi <= depth_lo (the default) takes this frame's nearest and farthest geometry
//     (a GPU min/max in two passes before the view, see add_to); a single depth value then shows
//     mid-ramp. Matches io::depth_to_display.
//   Motion (two-channel float: RG16F, RG32F; pixels moved since the previous frame, +x right,
//     +y down): R = 0.5 + x * motion_scale, G = 0.5 + y * motion_scale, each clamped to 0..1,
//     B = 128/255: still pixels are gray, rightward motion is red, downward green, leftward and
//     upward motion cyan-blue and magenta-blue. The default scale shows +-8 px at full scale, as
//     io::motion_to_display does.
//
// Settings are read when the pass is recorded, so the UI can change them between frames; the
// kind is fixed by add_to (re-add the pass when the source changes).
#include "graph/graph.h"
#include "passes/pass_env.h"
#include "passes/tonemap_curves.h"
#include "vk/resources.h"

#include <array>
#include <optional>
#include <string>

namespace filterlab::passes {

enum class ViewKind : uint32_t { Hdr, Display, Depth, Motion };

// Mirrors view_common.glsl's push constant block.
struct ViewPush {
  uint32_t components;
  uint32_t channel;
  float exposure;
  float motion_scale;
  float depth_lo, depth_hi;
  uint32_t srgb_source;
  uint32_t curve;  // Hdr: TONEMAP_*
};
static_assert(sizeof(ViewPush) == 32);

struct ViewSettings {
  enum class Channel : uint32_t { All, R, G, B, A };

  float exposure = 1.0f;                                     // Hdr
  passes::Tonemapper tonemapper = passes::Tonemapper::Aces;  // Hdr
  // Depth: the raw depth values shown white and dark gray; depth_hi <= depth_lo: this frame's range.
  float depth_lo = 0.0f, depth_hi = 0.0f;
  float motion_scale = 1.0f / 16.0f;  // Motion: colour offset per pixel moved
  // Hdr and Display: one stored channel alone, as gray, through the kind's mapping (alpha 1).
  // A channel the format lacks reads as 0 (alpha as 1). Depth and Motion ignore it.
  Channel channel = Channel::All;
};

class ViewPass {
 public:
  explicit ViewPass(const PassEnv& env);

  // nullopt: a format the pass cannot show (integer and packed formats, for instance).
  static std::optional<ViewKind> kind_for(VkFormat format);

  // Declares `output` (RGBA8_UNORM, the size of `source`'s mip 0) and a compute pass `pass_name`
  // reading `source`. A depth source adds the buffer "<pass_name> depth range" and the passes
  // "<pass_name> range reset" and "<pass_name> range" before it (this frame's depth range; the
  // range pass reads only `source` and the buffer). In frames whose settings fix the range, both
  // record nothing and show as idle in the timings (PassContext::skip). Throws std::invalid_argument when
  // kind_for rejects the source's format, graph::GraphError when `source` is not declared.
  void add_to(graph::RenderGraph& graph, const std::string& source, const std::string& output,
              const std::string& pass_name = "view");

  ViewSettings settings;

 private:
  // The depth range buffer and the passes that fill it (reading `source`); returns the buffer's name.
  std::string add_depth_range(graph::RenderGraph& graph, const std::string& source,
                              const std::string& pass_name);
  ViewPush push(uint32_t components, bool srgb) const;  // this frame's settings

  PassEnv env_;
};

}  // namespace filterlab::passes
