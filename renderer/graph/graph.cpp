#include "graph/graph.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace filterlab::graph {

const char* pass_kind_name(PassKind kind) {
  switch (kind) {
    case PassKind::Graphics: return "graphics";
    case PassKind::Compute: return "compute";
    case PassKind::Transfer: return "transfer";
  }
  return "?";
}

// ---- builder ---------------------------------------------------------------------------------

PassDecl& PassBuilder::pass() {
  return graph_.passes_[index_];
}

PassBuilder& PassBuilder::read(const std::string& image, Usage usage, MipRange mips) {
  pass().accesses.push_back({image, usage, mips, false, {}});
  return *this;
}
PassBuilder& PassBuilder::write(const std::string& image, Usage usage, MipRange mips) {
  pass().accesses.push_back({image, usage, mips, false, {}});
  return *this;
}
PassBuilder& PassBuilder::read_write(const std::string& image, MipRange mips) {
  return write(image, Usage::StorageReadWriteCompute, mips);
}
PassBuilder& PassBuilder::read_history(const std::string& image, Usage usage) {
  pass().accesses.push_back({image, usage, {}, true, {}});
  return *this;
}
PassBuilder& PassBuilder::attachment(const std::string& image, Usage usage, AttachmentClear how) {
  pass().accesses.push_back({image, usage, mip(0), false, how});
  return *this;
}
PassBuilder& PassBuilder::color(const std::string& image, std::optional<VkClearColorValue> clear) {
  return clear ? attachment(image, Usage::ColorAttachment, {true, VkClearValue{.color = *clear}})
               : attachment(image, Usage::ColorAttachment, {});
}
PassBuilder& PassBuilder::color_overwrite(const std::string& image) {
  return attachment(image, Usage::ColorAttachment, {false, {}, true});
}
PassBuilder& PassBuilder::depth(const std::string& image, std::optional<float> clear) {
  return clear ? attachment(image, Usage::DepthAttachment, {true, VkClearValue{.depthStencil = {*clear, 0}}})
               : attachment(image, Usage::DepthAttachment, {});
}
PassBuilder& PassBuilder::read_buffer(const std::string& buffer, BufferUsage usage) {
  const BufferUsageInfo info = usage_info(usage);
  // A usage that writes would make the pass a writer the reader's name hides (culling and barriers
  // follow the usage, not the verb).
  if (!info.reads || info.writes)
    throw GraphError("pass '" + pass().name + "' reads buffer '" + buffer + "' as " + usage_name(usage) +
                     ", which " + (info.writes ? "writes" : "does not read") + " it");
  pass().buffer_accesses.push_back({buffer, usage});
  return *this;
}
PassBuilder& PassBuilder::write_buffer(const std::string& buffer, BufferUsage usage) {
  if (!usage_info(usage).writes)
    throw GraphError("pass '" + pass().name + "' writes buffer '" + buffer + "' as " + usage_name(usage) +
                     ", which does not write it");
  pass().buffer_accesses.push_back({buffer, usage});
  return *this;
}
PassBuilder& PassBuilder::read_write_buffer(const std::string& buffer) {
  return write_buffer(buffer, BufferUsage::StorageReadWriteCompute);
}
PassBuilder& PassBuilder::own_render_pass() {
  pass().own_render_pass = true;
  return *this;
}

PassBuilder& PassBuilder::side_effect() {
  pass().side_effect = true;
  return *this;
}
PassBuilder& PassBuilder::execute(PassCallback callback) {
  pass().callback = std::move(callback);
  return *this;
}

// ---- declarations ----------------------------------------------------------------------------

void RenderGraph::check_new_name(const std::string& name) const {
  if (has_image(name)) throw GraphError("'" + name + "' is already declared as an image");
  if (has_buffer(name)) throw GraphError("'" + name + "' is already declared as a buffer");
}

void RenderGraph::declare_image(const std::string& name, const ImageDesc& desc) {
  check_new_name(name);
  if (desc.mip_levels == 0) throw GraphError("image '" + name + "' has zero mip levels");
  images_.push_back({name, desc});
}

void RenderGraph::alias_image(const std::string& alias, const std::string& image) {
  check_new_name(alias);
  auto target = aliases_.find(image);
  const std::string& name = target == aliases_.end() ? image : target->second;
  if (!has_image(name))
    throw GraphError("alias '" + alias + "' names image '" + image + "', which is not declared");
  aliases_[alias] = name;
}

void RenderGraph::declare_buffer(const std::string& name, const BufferDesc& desc) {
  check_new_name(name);
  buffers_.push_back({name, desc, {}, {}});
}

void RenderGraph::import_buffer(const std::string& name, BufferSource source,
                                std::optional<BufferUsage> after) {
  check_new_name(name);
  if (!source) throw GraphError("buffer '" + name + "' is imported without a source");
  buffers_.push_back({name, {}, std::move(source), after});
}

PassBuilder RenderGraph::add_pass(const std::string& name, PassKind kind) {
  for (const PassDecl& p : passes_)
    if (p.name == name) throw GraphError("pass '" + name + "' is declared twice");
  passes_.push_back({name, kind, {}, {}, {}, false});
  return PassBuilder(*this, passes_.size() - 1);
}

std::vector<std::string> RenderGraph::image_names() const {
  std::vector<std::string> names;
  for (const ImageEntry& image : images_) names.push_back(image.name);
  for (const auto& [alias, image] : aliases_) names.push_back(alias);
  return names;
}

bool RenderGraph::has_image(const std::string& name) const {
  return aliases_.count(name) > 0 ||
         std::any_of(images_.begin(), images_.end(), [&](auto& i) { return i.name == name; });
}

bool RenderGraph::has_buffer(const std::string& name) const {
  return std::any_of(buffers_.begin(), buffers_.end(), [&](auto& b) { return b.name == name; });
}

const ImageDesc& RenderGraph::image_desc(const std::string& name) const {
  auto alias = aliases_.find(name);
  const std::string& target = alias == aliases_.end() ? name : alias->second;
  for (const ImageEntry& image : images_)
    if (image.name == target) return image.desc;
  throw GraphError("image '" + name + "' is not declared");
}

const std::string& CompiledGraph::canonical(const std::string& name) const {
  auto alias = aliases.find(name);
  return alias == aliases.end() ? name : alias->second;
}

std::optional<uint32_t> CompiledGraph::find_image(const std::string& name) const {
  const std::string& target = canonical(name);
  for (uint32_t i = 0; i < images.size(); ++i)
    if (images[i].name == target) return i;
  return std::nullopt;
}

std::optional<uint32_t> CompiledGraph::find_buffer(const std::string& name) const {
  for (uint32_t i = 0; i < buffers.size(); ++i)
    if (buffers[i].name == name) return i;
  return std::nullopt;
}

// ---- compile ---------------------------------------------------------------------------------

namespace {

bool usage_allowed(PassKind kind, Usage usage) {
  switch (kind) {
    case PassKind::Graphics:
      return usage == Usage::ColorAttachment || usage == Usage::DepthAttachment ||
             usage == Usage::SampledFragment;
    case PassKind::Compute:
      return usage == Usage::SampledCompute || usage == Usage::StorageReadCompute ||
             usage == Usage::StorageWriteCompute || usage == Usage::StorageReadWriteCompute;
    case PassKind::Transfer: return usage == Usage::TransferSrc || usage == Usage::TransferDst;
  }
  return false;
}

bool buffer_usage_allowed(PassKind kind, BufferUsage usage) {
  switch (kind) {
    case PassKind::Graphics: return usage == BufferUsage::IndirectRead;
    case PassKind::Compute:
      return usage == BufferUsage::StorageReadCompute || usage == BufferUsage::StorageWriteCompute ||
             usage == BufferUsage::StorageReadWriteCompute || usage == BufferUsage::UniformCompute ||
             usage == BufferUsage::IndirectRead;
    case PassKind::Transfer: return usage == BufferUsage::TransferSrc || usage == BufferUsage::TransferDst;
  }
  return false;
}

uint32_t scaled(uint32_t size, float scale) {
  // Multiply in float: the scale has float precision, and 1920 * 0.2f must give 384, not 385.
  return std::max(1u, static_cast<uint32_t>(std::ceil(static_cast<float>(size) * scale)));
}

}  // namespace

// What one pass reads and writes, per subresource, and which images it reads from the previous frame.
struct RenderGraph::PassSubresources {
  std::set<Sub> reads, writes;
  std::set<uint32_t> history_reads;
};

std::vector<VkExtent2D> RenderGraph::image_extents(const NameIndex& index, VkExtent2D output_extent,
                                                   VkExtent2D surface_extent) const {
  // Resolve each rule, following RelativeToImage chains and rejecting cycles.
  std::vector<std::optional<VkExtent2D>> extents(images_.size());
  std::function<VkExtent2D(uint32_t, std::vector<uint32_t>&)> resolve =
      [&](uint32_t i, std::vector<uint32_t>& chain) -> VkExtent2D {
    if (extents[i]) return *extents[i];
    const ImageEntry& image = images_[i];
    if (std::find(chain.begin(), chain.end(), i) != chain.end()) {
      std::string path;
      for (uint32_t c : chain) path += images_[c].name + " -> ";
      throw GraphError("size of image '" + image.name + "' cannot be resolved: cycle " + path + image.name);
    }
    chain.push_back(i);
    const SizeRule& rule = image.desc.size;
    VkExtent2D e{};
    switch (rule.kind) {
      case SizeRule::Kind::Output:
        e = {scaled(output_extent.width, rule.scale_x), scaled(output_extent.height, rule.scale_y)};
        break;
      case SizeRule::Kind::Surface: e = surface_extent; break;
      case SizeRule::Kind::Absolute:
        if (rule.width == 0 || rule.height == 0)
          throw GraphError("size of image '" + image.name + "' cannot be resolved: it is 0x0");
        e = {rule.width, rule.height};
        break;
      case SizeRule::Kind::RelativeToImage: {
        auto it = index.find(rule.image);
        if (it == index.end())
          throw GraphError("size of image '" + image.name + "' cannot be resolved: it is relative to '" +
                           rule.image + "', which is not declared");
        VkExtent2D base = resolve(it->second, chain);
        e = {scaled(base.width, rule.scale_x), scaled(base.height, rule.scale_y)};
        break;
      }
    }
    chain.pop_back();
    extents[i] = e;
    return e;
  };
  std::vector<VkExtent2D> out;
  for (uint32_t i = 0; i < images_.size(); ++i) {
    std::vector<uint32_t> chain;
    out.push_back(resolve(i, chain));
  }
  return out;
}

std::vector<VkDeviceSize> RenderGraph::buffer_sizes(const NameIndex& image_index,
                                                    const std::vector<VkExtent2D>& extents) const {
  std::vector<VkDeviceSize> sizes(buffers_.size(), 0);  // imported buffers: their owner's size
  for (uint32_t b = 0; b < buffers_.size(); ++b) {
    if (buffers_[b].imported) continue;
    const BufferSize& rule = buffers_[b].desc.size;
    const std::string unresolved = "size of buffer '" + buffers_[b].name + "' cannot be resolved: ";
    VkDeviceSize size = rule.bytes;
    if (rule.kind != BufferSize::Kind::Bytes) {
      auto it = image_index.find(rule.image);
      if (it == image_index.end())
        throw GraphError(unresolved + "it follows '" + rule.image + "', which is not declared");
      const VkExtent2D e = extents[it->second];
      if (rule.kind == BufferSize::Kind::OfExtent) {
        if (!rule.of_extent) throw GraphError(unresolved + "it has no size function");
        size = rule.of_extent(e);
      } else {
        if (rule.tile_width == 0 || rule.tile_height == 0) throw GraphError(unresolved + "its tile is empty");
        size *= VkDeviceSize((e.width + rule.tile_width - 1) / rule.tile_width) *
                ((e.height + rule.tile_height - 1) / rule.tile_height);
      }
    }
    if (size == 0) throw GraphError(unresolved + "it is 0 bytes");
    sizes[b] = size;
  }
  return sizes;
}

std::vector<RenderGraph::PassSubresources> RenderGraph::collect_accesses(
    const NameIndex& image_index, const NameIndex& buffer_index) const {
  // Buffers are resources numbered after the images (see Sub).
  const uint32_t first_buffer = static_cast<uint32_t>(images_.size());
  std::vector<PassSubresources> subs(passes_.size());
  for (size_t p = 0; p < passes_.size(); ++p) {
    const PassDecl& pass = passes_[p];
    if (!pass.callback) throw GraphError("pass '" + pass.name + "' has no execute callback");
    if (pass.own_render_pass && pass.kind != PassKind::Graphics)
      throw GraphError("pass '" + pass.name +
                       "' is not a graphics pass and cannot begin its own render pass");
    std::set<Sub> touched;
    for (const ImageAccess& a : pass.accesses) {
      auto it = image_index.find(a.image);
      if (it == image_index.end())
        throw GraphError("pass '" + pass.name + "' uses image '" + a.image + "', which is not declared");
      if (!usage_allowed(pass.kind, a.usage))
        throw GraphError("pass '" + pass.name + "' is a " + pass_kind_name(pass.kind) +
                         " pass and cannot use image '" + a.image + "' as " + usage_name(a.usage));
      const uint32_t levels = images_[it->second].desc.mip_levels;
      const uint32_t count = a.mips.count == kAllMips ? levels - std::min(levels, a.mips.base) : a.mips.count;
      if (a.mips.base >= levels || count == 0 || count > levels - a.mips.base)
        throw GraphError("pass '" + pass.name + "' accesses mip " + std::to_string(a.mips.base) +
                         " of image '" + a.image + "', which has " + std::to_string(levels) + " level(s)");
      const UsageInfo info = usage_info(a.usage);
      if (a.history) {
        if (info.writes)
          throw GraphError("pass '" + pass.name + "' writes the previous frame of '" + a.image + "'");
        subs[p].history_reads.insert(it->second);
        continue;
      }
      for (uint32_t m = a.mips.base; m < a.mips.base + count; ++m) {
        if (!touched.insert({it->second, m}).second)
          throw GraphError("pass '" + pass.name + "' accesses image '" + a.image + "' mip " +
                           std::to_string(m) + " twice");
        // An attachment loaded rather than cleared reads what an earlier pass left there.
        const bool loads = (a.usage == Usage::ColorAttachment || a.usage == Usage::DepthAttachment) &&
                           !a.attachment.clear && !a.attachment.discard;
        if (info.reads || loads) subs[p].reads.insert({it->second, m});
        if (info.writes) subs[p].writes.insert({it->second, m});
      }
    }
    for (const BufferAccess& a : pass.buffer_accesses) {
      auto it = buffer_index.find(a.buffer);
      if (it == buffer_index.end())
        throw GraphError("pass '" + pass.name + "' uses buffer '" + a.buffer + "', which is not declared");
      if (!buffer_usage_allowed(pass.kind, a.usage))
        throw GraphError("pass '" + pass.name + "' is a " + pass_kind_name(pass.kind) +
                         " pass and cannot use buffer '" + a.buffer + "' as " + usage_name(a.usage));
      const Sub sub{first_buffer + it->second, 0};
      if (!touched.insert(sub).second)
        throw GraphError("pass '" + pass.name + "' accesses buffer '" + a.buffer + "' twice");
      const BufferUsageInfo info = usage_info(a.usage);
      if (info.reads) subs[p].reads.insert(sub);
      if (info.writes) subs[p].writes.insert(sub);
    }
  }
  return subs;
}

// Every read sees the latest earlier write; reading before any write is an error, except for
// imported buffers, which their owner filled. A history read needs a write anywhere in the frame.
void RenderGraph::check_reads_are_written(const std::vector<PassSubresources>& subs,
                                          const std::set<uint32_t>& written_anywhere) const {
  // Buffers: resources numbered after the images (see Sub).
  const uint32_t first_buffer = static_cast<uint32_t>(images_.size());
  auto resource_name = [&](const Sub& s) {
    if (s.first >= first_buffer) return "buffer '" + buffers_[s.first - first_buffer].name + "'";
    std::string what = "image '" + images_[s.first].name + "'";
    if (images_[s.first].desc.mip_levels > 1) what += " mip " + std::to_string(s.second);
    return what;
  };
  std::set<Sub> written;
  for (uint32_t b = 0; b < buffers_.size(); ++b)
    if (buffers_[b].imported) written.insert({first_buffer + b, 0});
  for (size_t p = 0; p < passes_.size(); ++p) {
    for (const Sub& s : subs[p].reads)
      if (!written.count(s))
        throw GraphError("pass '" + passes_[p].name + "' reads " + resource_name(s) +
                         ", which no earlier pass writes");
    for (uint32_t h : subs[p].history_reads)
      if (!written_anywhere.count(h))
        throw GraphError("pass '" + passes_[p].name + "' reads the previous frame of image '" +
                         images_[h].name + "', which no pass writes");
    written.insert(subs[p].writes.begin(), subs[p].writes.end());
  }
}

void RenderGraph::need_all_mips(std::set<Sub>& needs, uint32_t image) const {
  for (uint32_t m = 0; m < images_[image].desc.mip_levels; ++m) needs.insert({image, m});
}

// What must hold its value when the frame's passes are done, before any history read is counted:
// every mip of each output, and each imported buffer read after the frame.
std::set<RenderGraph::Sub> RenderGraph::frame_end_needs(const std::vector<std::string>& outputs,
                                                        const NameIndex& image_index,
                                                        const std::set<uint32_t>& written_anywhere) const {
  const uint32_t first_buffer = static_cast<uint32_t>(images_.size());
  std::set<Sub> needs;
  for (const std::string& name : outputs) {
    auto it = image_index.find(name);
    if (it == image_index.end()) throw GraphError("output image '" + name + "' is not declared");
    if (!written_anywhere.count(it->second))
      throw GraphError("output image '" + name + "' is not written by any pass");
    need_all_mips(needs, it->second);
  }
  for (uint32_t b = 0; b < buffers_.size(); ++b)
    if (buffers_[b].after) needs.insert({first_buffer + b, 0});  // read after the frame
  return needs;
}

// Culling: walk backwards from what the frame end needs; a pass lives if it writes a subresource
// that is still needed, or has a side effect. A live pass's history read makes every mip of that
// image needed at the end of the frame (the next frame reads it), which can bring more passes to
// life, so iterate until the set of such images stops growing. Returns, per declared pass, whether
// it lives.
std::vector<bool> RenderGraph::live_passes(const std::vector<PassSubresources>& subs,
                                           std::set<Sub> frame_end_needs) const {
  std::vector<bool> live(passes_.size(), false);
  for (;;) {
    std::set<Sub> needed = frame_end_needs;
    std::fill(live.begin(), live.end(), false);
    for (size_t p = passes_.size(); p-- > 0;) {
      bool writes_needed = std::any_of(subs[p].writes.begin(), subs[p].writes.end(),
                                       [&](const Sub& s) { return needed.count(s) > 0; });
      if (!writes_needed && !passes_[p].side_effect) continue;
      live[p] = true;
      // A write replaces everything later readers of the subresource read (usage.h): what an
      // earlier pass wrote there is not needed through this pass, unless this pass reads it too
      // (read-write usages, loaded attachments), which puts it back.
      for (const Sub& s : subs[p].writes) needed.erase(s);
      needed.insert(subs[p].reads.begin(), subs[p].reads.end());
    }
    size_t before = frame_end_needs.size();
    for (size_t p = 0; p < passes_.size(); ++p)
      if (live[p])
        for (uint32_t h : subs[p].history_reads) need_all_mips(frame_end_needs, h);
    if (frame_end_needs.size() == before) break;
  }
  return live;
}

// Emit live passes in declaration order, and the images and buffers they touch (plus the outputs),
// numbered in the order first touched; culled passes are listed by name.
CompiledGraph RenderGraph::emit_live_passes(const std::vector<bool>& live,
                                            const std::vector<std::string>& outputs,
                                            const NameIndex& image_index, const NameIndex& buffer_index,
                                            const std::vector<VkExtent2D>& extents,
                                            const std::vector<VkDeviceSize>& sizes) const {
  CompiledGraph out;
  std::map<uint32_t, uint32_t> compiled_index;
  auto compiled_image = [&](uint32_t i) -> uint32_t {
    auto [it, inserted] = compiled_index.try_emplace(i, static_cast<uint32_t>(out.images.size()));
    if (inserted)
      out.images.push_back({images_[i].name,
                            images_[i].desc,
                            extents[i],
                            VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                            false,
                            {}});
    return it->second;
  };
  std::map<uint32_t, uint32_t> compiled_buffer_index;
  auto compiled_buffer = [&](uint32_t b) -> uint32_t {
    auto [it, inserted] = compiled_buffer_index.try_emplace(b, static_cast<uint32_t>(out.buffers.size()));
    if (inserted) {
      const BufferEntry& entry = buffers_[b];
      out.buffers.push_back({entry.name, sizes[b], 0, entry.imported, entry.after});
    }
    return it->second;
  };
  for (size_t p = 0; p < passes_.size(); ++p) {
    const PassDecl& pass = passes_[p];
    if (!live[p]) {
      out.culled.push_back(pass.name);
      continue;
    }
    CompiledPass cp{static_cast<uint32_t>(p), pass.name, pass.kind, {}, {}};
    for (const ImageAccess& a : pass.accesses) {
      const uint32_t source = image_index.at(a.image);
      const uint32_t ci = compiled_image(source);
      CompiledImage& image = out.images[ci];
      const uint32_t levels = image.desc.mip_levels;
      const uint32_t count = a.mips.count == kAllMips ? levels - a.mips.base : a.mips.count;
      image.usage |= usage_info(a.usage).image_usage;
      if (a.history) image.history = true;
      if (image.producer.empty() && usage_info(a.usage).writes) image.producer = pass.name;
      cp.accesses.push_back({ci, a.usage, a.mips.base, count, a.history, a.attachment});
    }
    for (const BufferAccess& a : pass.buffer_accesses) {
      const uint32_t cb = compiled_buffer(buffer_index.at(a.buffer));
      CompiledBuffer& buffer = out.buffers[cb];
      buffer.usage |= usage_info(a.usage).buffer_usage;
      cp.buffer_accesses.emplace_back(cb, a.usage);
    }
    out.passes.push_back(std::move(cp));
  }
  for (const std::string& name : outputs) compiled_image(image_index.at(name));
  return out;
}

CompiledGraph RenderGraph::compile(const std::vector<std::string>& outputs, VkExtent2D output_extent,
                                   VkExtent2D surface_extent) const {
  if (output_extent.width == 0 || output_extent.height == 0)
    throw GraphError("output size must be at least 1x1");
  if (surface_extent.width == 0 || surface_extent.height == 0) surface_extent = output_extent;
  NameIndex index;
  for (uint32_t i = 0; i < images_.size(); ++i) index[images_[i].name] = i;
  for (const auto& [alias, image] : aliases_) index[alias] = index.at(image);
  NameIndex buffer_index;
  for (uint32_t b = 0; b < buffers_.size(); ++b) buffer_index[buffers_[b].name] = b;

  const std::vector<VkExtent2D> extents = image_extents(index, output_extent, surface_extent);
  const std::vector<VkDeviceSize> sizes = buffer_sizes(index, extents);
  const std::vector<PassSubresources> subs = collect_accesses(index, buffer_index);
  std::set<uint32_t> written_anywhere;
  for (const PassSubresources& pass : subs)
    for (const Sub& s : pass.writes) written_anywhere.insert(s.first);
  check_reads_are_written(subs, written_anywhere);

  const std::vector<bool> live = live_passes(subs, frame_end_needs(outputs, index, written_anywhere));
  CompiledGraph out = emit_live_passes(live, outputs, index, buffer_index, extents, sizes);
  out.output_extent = output_extent;
  out.surface_extent = surface_extent;
  out.aliases = aliases_;
  return out;
}

}  // namespace filterlab::graph
