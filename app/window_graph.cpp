#include "window_graph.h"

#include "graph/executor.h"

#include <algorithm>
#include "runtime/frame_graph.h"

namespace filterlab::app {

namespace {

// The window image (the surface's size) is cleared, then the viewport image (the graph's output
// size, which the app makes the viewport region's) is copied into the viewport region, 1:1, or
// zoomed: the shown region's pixels blitted to zoom x zoom (nearest: each pixel repeated, exactly).
// Read when the frame is recorded; the UI then draws its columns beside it.
void add_compose_pass(graph::RenderGraph& graph, std::shared_ptr<const WindowGraph::Compose> view) {
  graph.declare_image(WindowGraph::kWindow, {VK_FORMAT_R8G8B8A8_UNORM, graph::SizeRule::surface()});
  graph.add_pass("backdrop", graph::PassKind::Transfer)
      .write(WindowGraph::kWindow, graph::Usage::TransferDst)
      .execute([](graph::PassContext& ctx) {
        const VkImageSubresourceRange all{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
        const VkClearColorValue backdrop{{0.06f, 0.06f, 0.07f, 1.0f}};
        vkCmdClearColorImage(ctx.cmd, ctx.image_handle(WindowGraph::kWindow),
                             VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &backdrop, 1, &all);
      });
  graph.add_pass("compose", graph::PassKind::Transfer)
      .read(WindowGraph::kViewport, graph::Usage::TransferSrc)
      .write(WindowGraph::kWindow, graph::Usage::TransferDst)
      .execute([view](graph::PassContext& ctx) {
        const VkExtent2D src = ctx.image(WindowGraph::kViewport).extent;
        const VkExtent2D dst = ctx.image(WindowGraph::kWindow).extent;
        const int32_t x = std::clamp(view->offset.x, 0, int32_t(dst.width) - 1);
        const int32_t y = std::clamp(view->offset.y, 0, int32_t(dst.height) - 1);
        if (view->zoom > 1) {
          const ShownRegion r = shown_region(src.width, src.height, {view->zoom, -1, -1});
          const ShownRegion& s = view->region.w ? view->region : r;
          VkImageBlit blit{};
          blit.srcSubresource = blit.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
          blit.srcOffsets[0] = {s.x, s.y, 0};
          blit.srcOffsets[1] = {s.x + int32_t(s.w), s.y + int32_t(s.h), 1};
          blit.dstOffsets[0] = {x, y, 0};
          blit.dstOffsets[1] = {std::min(x + int32_t(s.w * view->zoom), int32_t(dst.width)),
                                std::min(y + int32_t(s.h * view->zoom), int32_t(dst.height)), 1};
          vkCmdBlitImage(ctx.cmd, ctx.image_handle(WindowGraph::kViewport),
                         VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, ctx.image_handle(WindowGraph::kWindow),
                         VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &blit, VK_FILTER_NEAREST);
          return;
        }
        VkImageCopy region{};
        region.srcSubresource = region.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
        region.dstOffset = {x, y, 0};
        region.extent = {std::min(src.width, dst.width - uint32_t(x)),
                         std::min(src.height, dst.height - uint32_t(y)), 1};
        vkCmdCopyImage(ctx.cmd, ctx.image_handle(WindowGraph::kViewport),
                       VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, ctx.image_handle(WindowGraph::kWindow),
                       VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
      });
}

}  // namespace

namespace {

std::optional<passes::CompareMetrics> with_flip(const passes::ComparePass* compare,
                                                const passes::FlipPass* flip, uint32_t slot) {
  if (!compare) return std::nullopt;
  std::optional<passes::CompareMetrics> m = compare->metrics(slot);
  if (m && flip)
    if (const std::optional<passes::FlipResult> f = flip->result(slot); f && f->frame == m->frame)
      m->flip = f;
  return m;
}

}  // namespace

std::optional<passes::CompareMetrics> displayed_metrics(const WindowGraph& graph, uint32_t slot) {
  return with_flip(graph.compare_displayed.get(), graph.flip.get(), slot);
}

std::optional<passes::CompareMetrics> hdr_metrics(const WindowGraph& graph, uint32_t slot) {
  return with_flip(graph.compare.get(), graph.flip_hdr.get(), slot);
}

WindowGraph build_window_graph(graph::RenderGraph& graph, const passes::PassEnv& env,
                               const GraphConfig& config, const AppState& state) {
  WindowGraph out;
  scene::SceneSettings settings = state.scene;
  settings.jitter =
      settings.jitter || filters::chain_needs(config.chain_a.enabled_steps(), filters::Input::Jitter) ||
      (config.compare && filters::chain_needs(config.chain_b.enabled_steps(), filters::Input::Jitter));
  filters::FilterInputs inputs;
  if (config.still) {
    out.still = std::make_unique<passes::StillImagePass>(env, *config.still);
    out.still->add_to(graph);
    inputs = runtime::still_inputs(*out.still);
  } else {
    out.scene = std::make_unique<passes::ScenePass>(
        env, settings, config.scene_model ? config.scene_model : scene::builtin_scene());
    out.scene->add_to(graph);
    inputs = runtime::scene_inputs(*out.scene);
  }
  out.output_a = filters::add_chain(graph, env, inputs, config.chain_a.enabled_steps(), "", out.filters);
  out.tonemap = std::make_unique<passes::TonemapPass>(env);
  out.tonemap->display = state.display();
  out.tonemap->add_to(graph, out.output_a);

  if (config.compare) {
    out.output_b = filters::add_chain(graph, env, inputs, config.chain_b.enabled_steps(), "b.", out.filters);
    out.tonemap->add_to(graph, out.output_b, WindowGraph::kFinalB, "b.tonemap", "tonemap");
    out.compare = std::make_unique<passes::ComparePass>(env);
    out.compare->add_metrics(graph, out.output_a, out.output_b, "compare metrics");
    // FLIP, A the reference, at the FLIP tools' viewing distance: LDR-FLIP of what the user looks
    // at, or (the metrics on the HDR outputs) HDR-FLIP of the chains' outputs at A's exposures,
    // found on the GPU every frame. Only the one shown records work.
    const passes::ComparePass* compare = out.compare.get();
    out.flip = std::make_unique<passes::FlipPass>(env, common::default_pixels_per_degree());
    out.flip->add_ldr(graph, passes::TonemapPass::kOutput, WindowGraph::kFinalB, WindowGraph::kFlip,
                      common::FlipInput::Srgb, [compare] { return !compare->settings.flip_of_hdr; });
    out.flip_hdr = std::make_unique<passes::FlipPass>(env, common::default_pixels_per_degree());
    out.flip_hdr->add_hdr(graph, out.output_a, out.output_b, WindowGraph::kFlipHdr, std::nullopt,
                          [compare] { return compare->settings.flip_of_hdr; });
    out.compare->add_display(graph, passes::TonemapPass::kOutput, WindowGraph::kFinalB,
                             WindowGraph::kViewport, WindowGraph::kFlip, WindowGraph::kFlipHdr);
    // What the user looks at: the tonemapped pair as displayed (RGBA8 holding sRGB-encoded values).
    out.compare_displayed = std::make_unique<passes::ComparePass>(env);
    out.compare_displayed->add_metrics(graph, passes::TonemapPass::kOutput, WindowGraph::kFinalB,
                                       "compare displayed metrics", passes::Ssim::On);
  }
  out.probe = std::make_unique<passes::PixelProbe>(env);
  out.probe->add_to(graph,
                    {out.output_a, config.compare ? out.output_b : out.output_a, passes::TonemapPass::kOutput,
                     config.compare ? WindowGraph::kFinalB : passes::TonemapPass::kOutput},
                    "inspect");
  for (const std::string& name : graph.image_names())
    if (passes::ViewPass::kind_for(graph.image_desc(name).format)) out.viewport_sources.push_back(name);
  if (!config.compare) {
    runtime::check_images_exist(graph, {config.viewport});
    out.view = std::make_unique<passes::ViewPass>(env);
    out.view->add_to(graph, config.viewport, WindowGraph::kViewport);
  }
  add_compose_pass(graph, out.compose);
  return out;
}

}  // namespace filterlab::app
