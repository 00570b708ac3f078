#include "live_graph.h"

#include "runtime/frame_graph.h"
#include "vk/swapchain.h"

namespace filterlab::app {

namespace {

// `source` read as TransferSrc by a side-effect pass, so the graph derives its barrier and
// layout (UI write -> copy read, and back next frame) like any other access.
void add_present_pass(graph::RenderGraph& graph, const PresentTarget& target, const std::string& source) {
  const VkFormat format = graph.image_desc(source).format;
  graph.add_pass("present", graph::PassKind::Transfer)
      .read(source, graph::Usage::TransferSrc)
      .side_effect()
      .execute([&target, format, source](graph::PassContext& ctx) {
        vk::PresentCopy copy;
        copy.src = ctx.image_handle(source);
        copy.src_format = format;
        copy.src_extent = ctx.image(source).extent;
        copy.dst = target.image;
        copy.dst_format = target.format;
        copy.dst_extent = target.extent;
        copy.readback = target.readback;
        vk::record_present_copy(ctx.cmd, copy);
      });
}

}  // namespace

LiveGraph::LiveGraph(const vk::Context& ctx, const passes::PassEnv& env, ImGuiLayer& ui,
                     const std::vector<std::string>& captures, bool gpu_timing)
    : ctx_(ctx),
      env_(env),
      ui_(ui),
      captures_(captures),
      executor_(std::make_unique<graph::Executor>(ctx, env.frames_in_flight, gpu_timing)) {
  outputs_.push_back(WindowGraph::kWindow);
  outputs_.insert(outputs_.end(), captures.begin(), captures.end());
}

LiveGraph::~LiveGraph() {
  // Frames in flight use the current passes and the executor's images; the retired graphs and
  // executors go with the rest once the device is idle.
  vkDeviceWaitIdle(ctx_.device());
}

void LiveGraph::build(const GraphConfig& config, const AppState& state, uint64_t frame) {
  auto next = std::make_unique<graph::RenderGraph>();
  WindowGraph next_objects = build_window_graph(*next, env_, config, state);
  ui_.add_to(*next, WindowGraph::kWindow);
  add_present_pass(*next, target_, WindowGraph::kWindow);
  runtime::check_images_exist(*next, outputs_);
  runtime::check_images_capturable(*next, captures_);  // before any frame, as headless runs do
  next->compile(outputs_, {64, 64});  // declaration errors surface here, not mid-frame
  if (graph_) retired_.retire({std::move(graph_), std::move(objects_)}, frame);
  objects_ = std::move(next_objects);
  graph_ = std::move(next);
  config_ = config;
  prepared_ = false;
  ++builds_;
}

bool LiveGraph::set_gpu_timing(bool on, uint64_t frame) {
  if (on == executor_->gpu_timing()) return false;
  retired_executors_.retire(std::move(executor_), frame);
  executor_ = std::make_unique<graph::Executor>(ctx_, env_.frames_in_flight, on);
  prepared_ = false;
  return true;
}

void LiveGraph::prepare(VkExtent2D extent, VkExtent2D surface) {
  const auto same = [](VkExtent2D a, VkExtent2D b) { return a.width == b.width && a.height == b.height; };
  if (prepared_ && same(extent, prepared_extent_) && same(surface, prepared_surface_)) return;
  // Same graph at a new size, a new graph or a new executor: images whose description changed
  // are recreated, the UI's target among them; the UI knows them by their generation.
  executor_->prepare(*graph_, outputs_, extent, surface);
  prepared_ = true;
  prepared_extent_ = extent;
  prepared_surface_ = surface;
  ++prepares_;
}

void LiveGraph::record(VkCommandBuffer cmd, uint64_t frame, const PresentTarget& target) {
  target_ = target;
  if (frame + 1 >= env_.frames_in_flight) {
    const uint64_t first_unfinished = frame + 1 - env_.frames_in_flight;
    retired_.destroy_finished(first_unfinished);
    retired_executors_.destroy_finished(first_unfinished,
                                        [](auto& executor) { executor->frames_finished(); });
  }
  executor_->record(cmd, uint32_t(frame % env_.frames_in_flight), frame);
}

}  // namespace filterlab::app
