#pragma once
// Declarative render graph: passes name the images and buffers they read and write, each with a
// usage. compile() checks the declarations, culls passes whose results do not reach an output,
// orders the passes and resolves image and buffer sizes. It is pure logic; the Executor runs the
// result on a GPU.
#include "graph/usage.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace filterlab::graph {

class GraphError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// An image's size: the output's (scaled), fixed, another image's (scaled), or the surface's: the
// window the output is shown in, when the output fills only part of it (the window's viewport
// between its side columns); without a surface given, the surface is the output.
struct SizeRule {
  enum class Kind { Output, Absolute, RelativeToImage, Surface };
  Kind kind = Kind::Output;
  uint32_t width = 0, height = 0;        // Absolute
  float scale_x = 1.0f, scale_y = 1.0f;  // Output and RelativeToImage; rounded up, at least 1
  std::string image;                     // RelativeToImage

  static SizeRule output(float scale = 1.0f) { return {Kind::Output, 0, 0, scale, scale, {}}; }
  static SizeRule absolute(uint32_t w, uint32_t h) { return {Kind::Absolute, w, h, 1, 1, {}}; }
  static SizeRule relative_to(std::string name, float scale = 1.0f) {
    return {Kind::RelativeToImage, 0, 0, scale, scale, std::move(name)};
  }
  static SizeRule surface() { return {Kind::Surface, 0, 0, 1, 1, {}}; }
};

struct ImageDesc {
  VkFormat format = VK_FORMAT_R16G16B16A16_SFLOAT;
  SizeRule size = SizeRule::output();
  uint32_t mip_levels = 1;
};

// A transient buffer's size: fixed, a number of bytes per tile of an image (one entry per
// workgroup of a reduction, say), or any function of an image's extent (a padded FFT spectrum), so
// that it follows the image when the output is resized.
struct BufferSize {
  enum class Kind { Bytes, PerTile, OfExtent };
  Kind kind = Kind::Bytes;
  VkDeviceSize bytes = 0;  // Bytes: the size; PerTile: bytes per tile
  std::string image;       // PerTile, OfExtent: the image the size follows
  uint32_t tile_width = 1, tile_height = 1;
  std::function<VkDeviceSize(VkExtent2D)> of_extent;  // OfExtent

  static BufferSize fixed(VkDeviceSize bytes) { return {Kind::Bytes, bytes, {}, 1, 1, {}}; }
  static BufferSize per_tile(std::string image, uint32_t tile_width, uint32_t tile_height,
                             VkDeviceSize bytes_per_tile) {
    return {Kind::PerTile, bytes_per_tile, std::move(image), tile_width, tile_height, {}};
  }
  static BufferSize of(std::string image, std::function<VkDeviceSize(VkExtent2D)> bytes) {
    return {Kind::OfExtent, 0, std::move(image), 1, 1, std::move(bytes)};
  }
};

struct BufferDesc {
  BufferSize size;
};

// A buffer the graph does not own (RenderGraph::import_buffer): one per frame-in-flight slot.
struct ExternalBuffer {
  VkBuffer handle = VK_NULL_HANDLE;
  VkDeviceSize size = 0;
};
using BufferSource = std::function<ExternalBuffer(uint32_t slot)>;

constexpr uint32_t kAllMips = ~0u;

struct MipRange {
  uint32_t base = 0;
  uint32_t count = kAllMips;
};
inline MipRange mip(uint32_t level) {
  return {level, 1};
}

enum class PassKind { Graphics, Compute, Transfer };
const char* pass_kind_name(PassKind kind);

struct AttachmentClear {
  bool clear = false;  // false: load the previous contents (a read), unless discard
  VkClearValue value{};
  bool discard = false;  // the pass overwrites every pixel: previous contents are not needed
};

struct ImageAccess {
  std::string image;
  Usage usage;
  MipRange mips;
  bool history = false;  // reads the previous frame's version
  AttachmentClear attachment;
};

struct BufferAccess {
  std::string buffer;
  BufferUsage usage;
};

class PassContext;  // defined by the executor
using PassCallback = std::function<void(PassContext&)>;

struct PassDecl {
  std::string name;
  PassKind kind = PassKind::Compute;
  std::vector<ImageAccess> accesses;
  std::vector<BufferAccess> buffer_accesses;
  PassCallback callback;
  bool side_effect = false;  // never culled
  // Graphics only: the callback begins and ends its own VkRenderPass (Dear ImGui 1.86's backend
  // needs one) instead of the executor's dynamic rendering. Barriers and layouts are still the
  // graph's: attachments are in their attachment layout when the callback runs and must be left so.
  bool own_render_pass = false;
};

class RenderGraph;

// Fluent builder returned by RenderGraph::add_pass.
class PassBuilder {
 public:
  PassBuilder(RenderGraph& graph, size_t index) : graph_(graph), index_(index) {}
  PassBuilder& read(const std::string& image, Usage usage, MipRange mips = {});
  PassBuilder& write(const std::string& image, Usage usage, MipRange mips = {});
  PassBuilder& read_write(const std::string& image, MipRange mips = {});
  PassBuilder& read_history(const std::string& image, Usage usage);
  PassBuilder& color(const std::string& image, std::optional<VkClearColorValue> clear = {});
  // A color attachment the pass covers completely (full-screen filters): no load, no clear.
  PassBuilder& color_overwrite(const std::string& image);
  PassBuilder& depth(const std::string& image, std::optional<float> clear = {});
  PassBuilder& read_buffer(const std::string& buffer, BufferUsage usage = BufferUsage::StorageReadCompute);
  PassBuilder& write_buffer(const std::string& buffer, BufferUsage usage = BufferUsage::StorageWriteCompute);
  PassBuilder& read_write_buffer(const std::string& buffer);  // StorageReadWriteCompute
  PassBuilder& side_effect();
  PassBuilder& own_render_pass();
  PassBuilder& execute(PassCallback callback);

 private:
  PassBuilder& attachment(const std::string& image, Usage usage, AttachmentClear how);
  PassDecl& pass();
  RenderGraph& graph_;
  size_t index_;
};

struct CompiledImage {
  std::string name;
  ImageDesc desc;
  VkExtent2D extent{};
  VkImageUsageFlags usage = 0;
  bool history = false;  // two physical images, swapped every frame
  std::string producer;  // first pass writing it
};

struct CompiledBuffer {
  std::string name;
  VkDeviceSize size = 0;  // transient buffers; an imported one has its owner's size
  VkBufferUsageFlags usage = 0;
  BufferSource imported;             // empty: the executor creates the buffer
  std::optional<BufferUsage> after;  // imported: how it is read after the frame
};

struct CompiledAccess {
  uint32_t image = 0;  // index into CompiledGraph::images
  Usage usage;
  uint32_t base_mip = 0, mip_count = 1;
  bool history = false;
  AttachmentClear attachment;
};

struct CompiledPass {
  uint32_t decl = 0;  // index into RenderGraph::passes()
  std::string name;
  PassKind kind;
  std::vector<CompiledAccess> accesses;
  std::vector<std::pair<uint32_t, BufferUsage>> buffer_accesses;  // index into CompiledGraph::buffers
};

struct CompiledGraph {
  std::vector<CompiledImage> images;
  std::vector<CompiledBuffer> buffers;
  std::vector<CompiledPass> passes;  // live passes, in execution order
  std::vector<std::string> culled;   // passes whose writes reach no output and no host read
  VkExtent2D output_extent{}, surface_extent{};
  std::map<std::string, std::string> aliases;                   // alias -> image (RenderGraph::alias_image)
  const std::string& canonical(const std::string& name) const;  // the image an alias names, or name
  std::optional<uint32_t> find_image(const std::string& name) const;  // by name or alias
  std::optional<uint32_t> find_buffer(const std::string& name) const;
};

class RenderGraph {
 public:
  void declare_image(const std::string& name, const ImageDesc& desc);
  // A second name for a declared image: passes, outputs and readbacks may use either (a step that
  // writes several images names the one that continues the chain after itself).
  void alias_image(const std::string& alias, const std::string& image);
  // A transient buffer: the executor creates it, sized at compile, and it holds nothing between
  // frames that a pass may rely on (read it only after a pass of the same frame wrote it).
  void declare_buffer(const std::string& name, const BufferDesc& desc);
  // A buffer its owner keeps, `source(slot)` in each frame-in-flight slot, ordered like the
  // graph's own. It may be read before any pass writes it (its owner filled it). `after`: how it
  // is read once the frame's passes are done (HostRead: by the host, after the frame's fence):
  // the frame ends with the barrier to that usage, and its writers are never culled.
  void import_buffer(const std::string& name, BufferSource source, std::optional<BufferUsage> after = {});
  PassBuilder add_pass(const std::string& name, PassKind kind);

  // outputs: images that must be produced (the displayed image, captures). surface_extent: what
  // SizeRule::surface() images get; {0, 0}: the output extent.
  CompiledGraph compile(const std::vector<std::string>& outputs, VkExtent2D output_extent,
                        VkExtent2D surface_extent = {}) const;

  const std::vector<PassDecl>& passes() const { return passes_; }
  std::vector<std::string> image_names() const;
  bool has_image(const std::string& name) const;
  const ImageDesc& image_desc(const std::string& name) const;
  bool has_buffer(const std::string& name) const;

 private:
  friend class PassBuilder;
  struct ImageEntry {
    std::string name;
    ImageDesc desc;
  };
  struct BufferEntry {
    std::string name;
    BufferDesc desc;
    BufferSource imported;
    std::optional<BufferUsage> after;
  };
  // compile()'s steps, in the order it takes them (graph.cpp documents each). The ones that check
  // declarations throw GraphError for a declaration they cannot accept.
  using NameIndex = std::map<std::string, uint32_t>;
  // A subresource of a logical resource: (image index, mip level), or (images + buffer index, 0)
  // for a buffer, so that buffers are ordered and culled by the same code as images.
  using Sub = std::pair<uint32_t, uint32_t>;
  struct PassSubresources;  // what one pass reads and writes (graph.cpp)
  std::vector<VkExtent2D> image_extents(const NameIndex& image_index, VkExtent2D output_extent,
                                        VkExtent2D surface_extent) const;
  std::vector<VkDeviceSize> buffer_sizes(const NameIndex& image_index,
                                         const std::vector<VkExtent2D>& extents) const;
  std::vector<PassSubresources> collect_accesses(const NameIndex& image_index,
                                                 const NameIndex& buffer_index) const;
  void check_reads_are_written(const std::vector<PassSubresources>& subs,
                               const std::set<uint32_t>& written_anywhere) const;
  std::set<Sub> frame_end_needs(const std::vector<std::string>& outputs, const NameIndex& image_index,
                                const std::set<uint32_t>& written_anywhere) const;
  std::vector<bool> live_passes(const std::vector<PassSubresources>& subs,
                                std::set<Sub> frame_end_needs) const;
  CompiledGraph emit_live_passes(const std::vector<bool>& live, const std::vector<std::string>& outputs,
                                 const NameIndex& image_index, const NameIndex& buffer_index,
                                 const std::vector<VkExtent2D>& extents,
                                 const std::vector<VkDeviceSize>& sizes) const;
  void need_all_mips(std::set<Sub>& needs, uint32_t image) const;
  void check_new_name(const std::string& name) const;
  std::vector<ImageEntry> images_;
  std::map<std::string, std::string> aliases_;
  std::vector<BufferEntry> buffers_;
  std::vector<PassDecl> passes_;
};

}  // namespace filterlab::graph
