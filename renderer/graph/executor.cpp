#include "graph/executor.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cstring>
#include <utility>

namespace filterlab::graph {

// ---- PassContext -----------------------------------------------------------------------------

PassContext::BoundImage PassContext::image(const std::string& alias, std::optional<uint32_t> mip) const {
  const std::string& name = graph_ ? graph_->canonical(alias) : alias;
  for (const Access& a : accesses_) {
    if (a.name != name || a.history) continue;
    if (mip && (*mip < a.base_mip || *mip >= a.base_mip + a.mip_count)) continue;
    const uint32_t level = mip.value_or(a.base_mip);
    // A single level gets a single-level view, so shaders address it as level 0.
    const bool one_level = mip || (a.mip_count == 1 && a.image->info().mip_levels > 1);
    return {one_level ? a.image->mip_view(level) : a.image->view(), a.layout, a.image->mip_extent(level),
            a.generation};
  }
  throw GraphError("pass uses image '" + name + "'" + (mip ? " mip " + std::to_string(*mip) : "") +
                   " without declaring it");
}

VkImage PassContext::image_handle(const std::string& alias) const {
  const std::string& name = graph_ ? graph_->canonical(alias) : alias;
  for (const Access& a : accesses_)
    if (a.name == name && !a.history) return a.image->handle();
  throw GraphError("pass uses image '" + name + "' without declaring it");
}

PassContext::BoundBuffer PassContext::buffer(const std::string& name) const {
  for (const auto& [buffer_name, bound] : buffers_)
    if (buffer_name == name) return bound;
  throw GraphError("pass uses buffer '" + name + "' without declaring it");
}

VkExtent2D PassContext::extent(const std::string& image) const {
  if (graph_)
    if (std::optional<uint32_t> i = graph_->find_image(image)) return graph_->images[*i].extent;
  throw GraphError("pass asks for the size of image '" + image + "', which the compiled graph does not have");
}

PassContext::BoundImage PassContext::history(const std::string& alias) const {
  const std::string& name = graph_ ? graph_->canonical(alias) : alias;
  for (const Access& a : accesses_)
    if (a.name == name && a.history) return {a.image->view(), a.layout, a.image->mip_extent(0), a.generation};
  throw GraphError("pass reads the previous frame of '" + name + "' without declaring it");
}

PassContext::Binder::Binder(PassContext& ctx, const vk::Pipeline& pipeline) : ctx_(ctx), pipeline_(pipeline) {
  vkCmdBindPipeline(ctx.cmd, pipeline.bind_point(), pipeline.handle());
}

PassContext::Binder& PassContext::Binder::sampled(uint32_t binding, const std::string& image,
                                                  Sampling sampling, std::optional<uint32_t> mip) {
  BoundImage b = ctx_.image(image, mip);
  push_.sampled(binding, b.view, ctx_.sampler(sampling), b.layout);
  return *this;
}

PassContext::Binder& PassContext::Binder::sampled_history(uint32_t binding, const std::string& image,
                                                          Sampling sampling) {
  BoundImage b = ctx_.history(image);
  push_.sampled(binding, b.view, ctx_.sampler(sampling), b.layout);
  return *this;
}

PassContext::Binder& PassContext::Binder::storage(uint32_t binding, const std::string& image,
                                                  std::optional<uint32_t> mip) {
  push_.storage_image(binding, ctx_.image(image, mip).view);
  return *this;
}

PassContext::Binder& PassContext::Binder::texture(uint32_t binding, const vk::Image& image,
                                                  VkSampler sampler) {
  push_.sampled(binding, image.view(), sampler, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
  return *this;
}

PassContext::Binder& PassContext::Binder::uniform(uint32_t binding, const vk::Buffer& buffer) {
  push_.uniform_buffer(binding, buffer.handle(), buffer.size());
  return *this;
}

PassContext::Binder& PassContext::Binder::uniform(uint32_t binding, const vk::Buffer& buffer,
                                                  VkDeviceSize offset, VkDeviceSize size) {
  push_.uniform_buffer(binding, buffer.handle(), size, offset);
  return *this;
}

PassContext::Binder& PassContext::Binder::storage_buffer(uint32_t binding, const vk::Buffer& buffer) {
  push_.storage_buffer(binding, buffer.handle(), buffer.size());
  return *this;
}

PassContext::Binder& PassContext::Binder::uniform(uint32_t binding, const std::string& buffer) {
  const BoundBuffer b = ctx_.buffer(buffer);
  push_.uniform_buffer(binding, b.handle, b.size);
  return *this;
}

PassContext::Binder& PassContext::Binder::storage_buffer(uint32_t binding, const std::string& buffer) {
  const BoundBuffer b = ctx_.buffer(buffer);
  push_.storage_buffer(binding, b.handle, b.size);
  return *this;
}

PassContext::Binder& PassContext::Binder::constants_bytes(const void* data, uint32_t size) {
  if (size != pipeline_.layout_desc().push_constant_size)
    throw std::runtime_error("push constant size " + std::to_string(size) +
                             " does not match the pipeline layout");
  VkShaderStageFlags stages = pipeline_.bind_point() == VK_PIPELINE_BIND_POINT_COMPUTE
                                  ? VK_SHADER_STAGE_COMPUTE_BIT
                                  : VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;
  vkCmdPushConstants(ctx_.cmd, pipeline_.layout(), stages, 0, size, data);
  return *this;
}

void PassContext::Binder::flush() {
  push_.push(ctx_.vk, ctx_.cmd, pipeline_);
}

void PassContext::Binder::dispatch(uint32_t x, uint32_t y, uint32_t z) {
  flush();
  vkCmdDispatch(ctx_.cmd, x, y, z);
}

void PassContext::Binder::dispatch_over(const std::string& image, uint32_t local_x, uint32_t local_y) {
  dispatch_over(ctx_.image(image).extent, local_x, local_y);
}

void PassContext::Binder::dispatch_over(VkExtent2D e, uint32_t local_x, uint32_t local_y) {
  dispatch((e.width + local_x - 1) / local_x, (e.height + local_y - 1) / local_y);
}

void PassContext::Binder::draw(uint32_t vertex_count) {
  flush();
  vkCmdDraw(ctx_.cmd, vertex_count, 1, 0, 0);
}

void PassContext::Binder::draw_indexed(VkBuffer vertices, VkBuffer indices, uint32_t index_count,
                                       uint32_t first_index) {
  flush();
  VkDeviceSize offset = 0;
  vkCmdBindVertexBuffers(ctx_.cmd, 0, 1, &vertices, &offset);
  vkCmdBindIndexBuffer(ctx_.cmd, indices, 0, VK_INDEX_TYPE_UINT32);
  vkCmdDrawIndexed(ctx_.cmd, index_count, 1, first_index, 0, 0);
}

// ---- Executor --------------------------------------------------------------------------------

namespace {

// The timer's first size: every graph filterlab builds at its defaults fits, and a larger one grows it.
constexpr uint32_t kTimedPasses = 128;

// The barrier tracker knows a buffer by its handle's value: an imported buffer is then one
// resource whichever graph name or slot it comes through.
static_assert(sizeof(VkBuffer) == sizeof(uint64_t));
uint64_t buffer_key(VkBuffer buffer) {
  return std::bit_cast<uint64_t>(buffer);
}

// Generations number the physical images of every executor in the process, so that an image made
// by a new executor never takes an identity that a consumer (the UI's framebuffers) has seen,
// whatever handles it gets. A counter and nothing else: no state that changes behaviour.
uint64_t next_image_generation() {
  static std::atomic<uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace

Executor::Executor(const vk::Context& ctx, uint32_t frames_in_flight, bool gpu_timing)
    : ctx_(ctx),
      frames_in_flight_(frames_in_flight),
      slot_timings_(frames_in_flight),
      linear_(ctx, VK_FILTER_LINEAR, "linear clamp"),
      nearest_(ctx, VK_FILTER_NEAREST, "nearest clamp"),
      one_shot_(ctx) {
  if (gpu_timing) timer_ = std::make_unique<GpuTimer>(ctx, frames_in_flight, kTimedPasses);
}

Executor::~Executor() {
  // Frames in flight may use the images and buffers, the replaced ones among them, and the
  // timestamp queries. Waiting here costs nothing next to a teardown and leaves the caller no
  // order of destruction to get right (vk/pipeline_library.cpp does the same).
  if (recorded_ && !frames_finished_) vkDeviceWaitIdle(ctx_.device());
}

void Executor::prepare(const RenderGraph& graph, const std::vector<std::string>& outputs, VkExtent2D extent,
                       VkExtent2D surface) {
  CompiledGraph compiled = graph.compile(outputs, extent, surface);
  // A graph of more passes than the timer holds (a chain of 127 steps refused with "more than 128
  // live passes") grows it: the graph has no limit of its own. Frames in flight still write the old
  // pools' queries, and their timings go with them.
  if (timer_ && compiled.passes.size() > timer_->max_passes()) {
    if (recorded_ && !frames_finished_) vkDeviceWaitIdle(ctx_.device());
    const uint32_t passes = std::max(uint32_t(compiled.passes.size()), 2 * timer_->max_passes());
    timer_ = std::make_unique<GpuTimer>(ctx_, frames_in_flight_, passes);
    for (std::vector<PassTiming>& slot : slot_timings_) slot.clear();
  }

  // Reuse physical images whose description is unchanged, by name.
  std::map<std::string, std::array<uint32_t, 2>> old_ids;
  for (size_t i = 0; i < compiled_.images.size(); ++i) old_ids[compiled_.images[i].name] = ids_.ids[i];

  PhysicalIds ids;
  std::map<uint32_t, Physical> kept;
  std::vector<uint32_t> fresh_history;
  for (const CompiledImage& image : compiled.images) {
    vk::ImageInfo info{image.desc.format, image.extent, image.desc.mip_levels, image.usage};
    const int count = image.history ? 2 : 1;
    std::array<uint32_t, 2> slot{};
    auto old = old_ids.find(image.name);
    bool reuse = old != old_ids.end() && (old->second[0] != old->second[1]) == image.history;
    for (int k = 0; reuse && k < count; ++k) {
      const vk::ImageInfo& have = physical_.at(old->second[k]).info;
      reuse = have.format == info.format && have.extent.width == info.extent.width &&
              have.extent.height == info.extent.height && have.mip_levels == info.mip_levels &&
              have.usage == info.usage;
    }
    for (int k = 0; k < count; ++k) {
      if (reuse) {
        slot[k] = old->second[k];
        kept.emplace(slot[k], std::move(physical_.at(slot[k])));
        physical_.erase(slot[k]);
        continue;
      }
      slot[k] = next_id_++;
      std::string name = image.name + (image.history ? (k ? " (odd frames)" : " (even frames)") : "");
      kept.emplace(slot[k], Physical{info, vk::Image(ctx_, info, name), next_image_generation()});
      if (image.history) fresh_history.push_back(slot[k]);
    }
    if (count == 1) slot[1] = slot[0];
    ids.ids.push_back(slot);
  }
  // Transient buffers likewise, by name, kept while their size and usage are unchanged.
  std::map<std::string, TransientBuffer> kept_buffers;
  for (const CompiledBuffer& buffer : compiled.buffers) {
    if (buffer.imported) continue;
    auto old = buffers_.find(buffer.name);
    if (old != buffers_.end() && old->second.size == buffer.size && old->second.usage == buffer.usage) {
      kept_buffers.emplace(buffer.name, std::move(old->second));
      buffers_.erase(old);
      continue;
    }
    kept_buffers.emplace(buffer.name,
                         TransientBuffer{buffer.size, buffer.usage,
                                         vk::Buffer(ctx_, buffer.size, buffer.usage, false, buffer.name)});
  }

  Retired replaced{last_frame_, {}, {}, {}};
  for (auto& [id, p] : physical_) {
    tracker_.forget_image(id);  // ids are never reused
    replaced.images.push_back(std::move(p));
  }
  for (auto& [name, b] : buffers_) replaced.buffers.push_back(std::move(b.buffer));
  for (const auto& [key, frame] : imported_last_frame_) replaced.imported_keys.push_back(key);
  retire(std::move(replaced));
  physical_ = std::move(kept);
  buffers_ = std::move(kept_buffers);
  ids.count = next_id_;
  ids_ = std::move(ids);
  compiled_ = std::move(compiled);
  graph_ = &graph;
  bind_transient_buffers();
  clear_history_images(fresh_history);
}

void Executor::bind_transient_buffers() {
  transient_bindings_.clear();
  for (const CompiledBuffer& buffer : compiled_.buffers) {
    if (buffer.imported) {
      transient_bindings_.push_back({VK_NULL_HANDLE, 0});
      continue;
    }
    const vk::Buffer& own = buffers_.at(buffer.name).buffer;
    transient_bindings_.push_back({own.handle(), own.size()});
  }
}

void Executor::retire(Retired retired) {
  if (retired.images.empty() && retired.buffers.empty() && retired.imported_keys.empty()) return;
  if (!recorded_) {
    forget(retired);  // no frame used them: destroyed now
    return;
  }
  const uint64_t first_unused = retired.last_frame + 1;
  retired_.retire(std::move(retired), first_unused);
}

void Executor::forget(const Retired& retired) {
  // A later buffer may get the same handle value: it starts with no accesses to wait for.
  for (const vk::Buffer& b : retired.buffers) tracker_.forget_buffer(buffer_key(b.handle()));
  // An imported buffer that no frame used since the prepare has finished its last access; its
  // owner may destroy it and a new buffer take its handle. One still in use keeps its state.
  for (uint64_t key : retired.imported_keys) {
    auto it = imported_last_frame_.find(key);
    if (it == imported_last_frame_.end() || it->second > retired.last_frame) continue;
    tracker_.forget_buffer(key);
    imported_last_frame_.erase(it);
  }
}

void Executor::clear_history_images(const std::vector<uint32_t>& ids) {
  if (ids.empty()) return;
  // The first frame reads "the previous frame" of a history image: make that a defined zero.
  one_shot_.run([&](VkCommandBuffer cmd) {
    std::vector<VkImageMemoryBarrier2> barriers;
    for (uint32_t id : ids) {
      const vk::Image& image = physical_.at(id).image;
      for (uint32_t m = 0; m < image.info().mip_levels; ++m)
        for (const ImageBarrier& b : tracker_.access({id, m}, Usage::TransferDst)) {
          VkImageMemoryBarrier2 vb{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2};
          vb.srcStageMask = b.src_stage;
          vb.srcAccessMask = b.src_access;
          vb.dstStageMask = b.dst_stage;
          vb.dstAccessMask = b.dst_access;
          vb.oldLayout = b.old_layout;
          vb.newLayout = b.new_layout;
          vb.srcQueueFamilyIndex = vb.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
          vb.image = image.handle();
          vb.subresourceRange = {image.aspect(), m, 1, 0, 1};
          barriers.push_back(vb);
        }
    }
    VkDependencyInfo dep{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
    dep.imageMemoryBarrierCount = static_cast<uint32_t>(barriers.size());
    dep.pImageMemoryBarriers = barriers.data();
    vkCmdPipelineBarrier2(cmd, &dep);
    for (uint32_t id : ids) {
      const vk::Image& image = physical_.at(id).image;
      VkImageSubresourceRange range{image.aspect(), 0, image.info().mip_levels, 0, 1};
      if (image.aspect() == VK_IMAGE_ASPECT_DEPTH_BIT) {
        VkClearDepthStencilValue zero{1.0f, 0};
        vkCmdClearDepthStencilImage(cmd, image.handle(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &zero, 1,
                                    &range);
      } else {
        VkClearColorValue zero{};
        vkCmdClearColorImage(cmd, image.handle(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &zero, 1, &range);
      }
    }
  });
}

const Executor::Physical& Executor::physical(uint32_t image, bool history, uint64_t frame) const {
  return physical_.at(physical_id(ids_, compiled_, image, history, frame));
}

namespace {

VkImageMemoryBarrier2 to_vk(const ImageBarrier& b, const vk::Image& image) {
  VkImageMemoryBarrier2 vb{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2};
  vb.srcStageMask = b.src_stage;
  vb.srcAccessMask = b.src_access;
  vb.dstStageMask = b.dst_stage;
  vb.dstAccessMask = b.dst_access;
  vb.oldLayout = b.old_layout;
  vb.newLayout = b.new_layout;
  vb.srcQueueFamilyIndex = vb.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  vb.image = image.handle();
  vb.subresourceRange = {image.aspect(), b.key.mip, 1, 0, 1};
  return vb;
}

VkBufferMemoryBarrier2 to_vk(const BufferBarrier& b) {
  return vk::buffer_barrier(std::bit_cast<VkBuffer>(b.buffer), b.src_stage, b.src_access, b.dst_stage,
                            b.dst_access);
}

// One vkCmdPipelineBarrier2 for all the image and buffer barriers of one point in the frame.
void record_barriers(VkCommandBuffer cmd, const PassBarriers& barriers,
                     const std::map<uint32_t, const vk::Image*>& images) {
  if (barriers.empty()) return;
  std::vector<VkImageMemoryBarrier2> image_barriers;
  for (const ImageBarrier& b : barriers.images) image_barriers.push_back(to_vk(b, *images.at(b.key.image)));
  std::vector<VkBufferMemoryBarrier2> buffer_barriers;
  for (const BufferBarrier& b : barriers.buffers) buffer_barriers.push_back(to_vk(b));
  VkDependencyInfo dep{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
  dep.imageMemoryBarrierCount = static_cast<uint32_t>(image_barriers.size());
  dep.pImageMemoryBarriers = image_barriers.data();
  dep.bufferMemoryBarrierCount = static_cast<uint32_t>(buffer_barriers.size());
  dep.pBufferMemoryBarriers = buffer_barriers.data();
  vkCmdPipelineBarrier2(cmd, &dep);
}

}  // namespace

std::vector<PassContext::BoundBuffer> Executor::bound_buffers(uint32_t slot) const {
  std::vector<PassContext::BoundBuffer> out = transient_bindings_;
  // An imported buffer stays a question to its source at every record: the answer depends on the
  // slot, and nothing binds the owner to give the same buffer in a later frame, so the barriers
  // and the tracker's bookkeeping follow whatever buffer the frame really uses.
  for (size_t i = 0; i < compiled_.buffers.size(); ++i) {
    const CompiledBuffer& buffer = compiled_.buffers[i];
    if (!buffer.imported) continue;
    const ExternalBuffer external = buffer.imported(slot);
    if (external.handle == VK_NULL_HANDLE)
      throw GraphError("imported buffer '" + buffer.name + "' has no buffer for slot " +
                       std::to_string(slot));
    out[i] = {external.handle, external.size};
  }
  return out;
}

void Executor::record(VkCommandBuffer cmd, uint32_t slot, uint64_t frame) {
  if (!graph_) throw GraphError("Executor::record before prepare");
  if (slot >= frames_in_flight_)
    throw GraphError("slot " + std::to_string(slot) + " but only " + std::to_string(frames_in_flight_) +
                     " frames in flight");
  // Frame `frame - frames_in_flight` has finished, and with it every frame before it.
  if (frame + 1 >= frames_in_flight_)
    retired_.destroy_finished(frame + 1 - frames_in_flight_, [&](const Retired& r) { forget(r); });
  std::map<uint32_t, const vk::Image*> by_id;
  for (auto& [id, p] : physical_) by_id[id] = &p.image;
  const std::vector<PassContext::BoundBuffer> bound = bound_buffers(slot);
  std::vector<uint64_t> keys;
  for (const PassContext::BoundBuffer& b : bound) keys.push_back(buffer_key(b.handle));
  for (size_t i = 0; i < keys.size(); ++i)
    if (compiled_.buffers[i].imported) imported_last_frame_[keys[i]] = frame;
  last_barriers_ = frame_barriers(compiled_, ids_, keys, tracker_, frame);
  last_frame_ = frame;
  recorded_ = true;
  frames_finished_ = false;
  if (timer_) timer_->begin_frame(cmd, slot, static_cast<uint32_t>(compiled_.passes.size()));
  slot_timings_[slot].clear();

  for (size_t p = 0; p < compiled_.passes.size(); ++p) {
    const auto start = std::chrono::steady_clock::now();
    const CompiledPass& pass = compiled_.passes[p];
    const PassDecl& decl = graph_->passes()[pass.decl];
    PassTiming& timing = slot_timings_[slot].emplace_back();
    timing.name = pass.name;
    ctx_.begin_label(cmd, pass.name);

    record_barriers(cmd, last_barriers_.passes[p], by_id);
    if (timer_) timer_->begin_pass(cmd, slot, static_cast<uint32_t>(p));

    PassContext ctx(ctx_, cmd, frame, slot, linear_.handle(), nearest_.handle());
    ctx.graph_ = &compiled_;
    for (const auto& [buffer, usage] : pass.buffer_accesses)
      ctx.buffers_.emplace_back(compiled_.buffers[buffer].name, bound[buffer]);
    std::vector<VkRenderingAttachmentInfo> colors;
    std::optional<VkRenderingAttachmentInfo> depth;
    VkExtent2D render_extent{};
    for (const CompiledAccess& a : pass.accesses) {
      const Physical& image = physical(a.image, a.history, frame);
      const UsageInfo info = usage_info(a.usage);
      const std::string& name = compiled_.images[a.image].name;
      ctx.accesses_.push_back(
          {name, a.history, a.base_mip, a.mip_count, info.layout, &image.image, image.generation});
      if (a.usage == Usage::ColorAttachment || a.usage == Usage::DepthAttachment) {
        const PassContext::BoundImage bound = ctx.image(name, a.base_mip);
        VkRenderingAttachmentInfo att{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
        att.imageView = bound.view;
        att.imageLayout = info.layout;
        att.loadOp = a.attachment.clear     ? VK_ATTACHMENT_LOAD_OP_CLEAR
                     : a.attachment.discard ? VK_ATTACHMENT_LOAD_OP_DONT_CARE
                                            : VK_ATTACHMENT_LOAD_OP_LOAD;
        att.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
        att.clearValue = a.attachment.value;
        if (a.usage == Usage::ColorAttachment) colors.push_back(att);
        else depth = att;
        if (render_extent.width == 0) render_extent = bound.extent;
      }
    }

    const bool dynamic_rendering = pass.kind == PassKind::Graphics && !decl.own_render_pass;
    if (dynamic_rendering) {
      VkRenderingInfo rendering{VK_STRUCTURE_TYPE_RENDERING_INFO};
      rendering.renderArea = {{0, 0}, render_extent};
      rendering.layerCount = 1;
      rendering.colorAttachmentCount = static_cast<uint32_t>(colors.size());
      rendering.pColorAttachments = colors.data();
      rendering.pDepthAttachment = depth ? &*depth : nullptr;
      vkCmdBeginRendering(cmd, &rendering);
      VkViewport viewport{0, 0, float(render_extent.width), float(render_extent.height), 0, 1};
      VkRect2D scissor{{0, 0}, render_extent};
      vkCmdSetViewport(cmd, 0, 1, &viewport);
      vkCmdSetScissor(cmd, 0, 1, &scissor);
    }
    decl.callback(ctx);
    if (dynamic_rendering) vkCmdEndRendering(cmd);
    timing.idle = ctx.skipped();

    if (timer_) timer_->end_pass(cmd, slot, static_cast<uint32_t>(p));
    ctx_.end_label(cmd);
    timing.cpu_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  }
  record_barriers(cmd, last_barriers_.end, by_id);
}

std::optional<std::vector<PassTiming>> Executor::timings(uint32_t slot) {
  if (slot_timings_[slot].empty()) return std::nullopt;
  std::optional<std::vector<double>> gpu;
  if (timer_) {
    gpu = timer_->read(slot);
    if (!gpu) return std::nullopt;
  }
  std::vector<PassTiming> out = std::exchange(slot_timings_[slot], {});
  // An idle pass's stamps still come back, a few ticks apart: no time of its own to report.
  for (size_t p = 0; p < out.size(); ++p) out[p].gpu_ms = gpu && !out[p].idle ? (*gpu)[p] : 0.0;
  return out;
}

Readback Executor::read_image(const std::string& name) {
  auto index = compiled_.find_image(name);
  if (!index) throw GraphError("no image named '" + name + "' in the compiled graph");
  const uint32_t id = physical_id(ids_, compiled_, *index, false, last_frame_);
  const vk::Image& image = physical_.at(id).image;
  const uint32_t texel = vk::format_texel_size(image.info().format);
  if (texel == 0) throw GraphError("cannot read back image '" + name + "': unsupported format");
  const VkExtent2D extent = image.info().extent;
  const VkDeviceSize size = VkDeviceSize(extent.width) * extent.height * texel;
  vk::Buffer staging(ctx_, size, VK_BUFFER_USAGE_TRANSFER_DST_BIT, true, "readback " + name);

  VK_CHECK(vkDeviceWaitIdle(ctx_.device()));
  one_shot_.run([&](VkCommandBuffer cmd) {
    PassBarriers to_transfer;
    to_transfer.images = tracker_.access({id, 0}, Usage::TransferSrc);
    record_barriers(cmd, to_transfer, {{id, &image}});
    VkBufferImageCopy region{};
    region.imageSubresource = {image.aspect(), 0, 0, 1};
    region.imageExtent = {extent.width, extent.height, 1};
    vkCmdCopyImageToBuffer(cmd, image.handle(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, staging.handle(), 1,
                           &region);
    // Make the copy visible to the host read that follows the fence wait.
    vk::record_barriers(cmd, {}, {vk::copy_to_host_barrier()});
  });
  Readback out{image.info().format, extent, std::vector<uint8_t>(size)};
  std::memcpy(out.bytes.data(), staging.mapped(), size);
  return out;
}

}  // namespace filterlab::graph
