#pragma once
// Runs a compiled graph: owns its images and transient buffers across frames (recreated when a
// description or size changes), records each live pass between a debug label and two timestamps,
// with the image and buffer barriers the schedule derives batched in one vkCmdPipelineBarrier2 per
// pass (and one at the end of the frame for buffers the host reads after it).
#include "graph/gpu_timer.h"
#include "graph/readback.h"
#include "graph/schedule.h"
#include "vk/pipelines.h"
#include "vk/resources.h"
#include "vk/retire_list.h"

#include <map>
#include <memory>
#include <optional>

namespace filterlab::graph {

// How a pass samples an image it reads through a sampler: bilinear or nearest texel, clamped to the edge.
enum class Sampling { Linear, Nearest };

// What a pass callback gets: its command buffer, its images and buffers and a small fluent binder.
//   ctx.bind(pipeline)
//       .sampled(BINDING_SOURCE, "scene")  // the binding numbers a config.h names
//       .storage(BINDING_DESTINATION, "final")
//       .constants(push)
//       .dispatch_over("final", 16, 16);
class PassContext {
 public:
  struct BoundImage {
    VkImageView view;
    VkImageLayout layout;
    VkExtent2D extent;  // of the accessed mip level
    // The physical image's identity, never given to another image by any executor: it changes
    // exactly when the image is created anew, whereas a new image may get a destroyed one's
    // handles. Whatever a pass makes over the image (a framebuffer) can be keyed by it.
    uint64_t generation;
  };
  struct BoundBuffer {
    VkBuffer handle;
    VkDeviceSize size;
  };
  class Binder {
   public:
    Binder(PassContext& ctx, const vk::Pipeline& pipeline);
    // `mip` picks one level of an image the pass accesses at several levels.
    Binder& sampled(uint32_t binding, const std::string& image, Sampling sampling = Sampling::Linear,
                    std::optional<uint32_t> mip = {});
    Binder& sampled_history(uint32_t binding, const std::string& image, Sampling sampling = Sampling::Linear);
    Binder& storage(uint32_t binding, const std::string& image, std::optional<uint32_t> mip = {});
    // An image no graph tracks (a scene's texture), ready in SHADER_READ_ONLY_OPTIMAL.
    Binder& texture(uint32_t binding, const vk::Image& image, VkSampler sampler);
    Binder& uniform(uint32_t binding, const vk::Buffer& buffer);
    Binder& uniform(uint32_t binding, const vk::Buffer& buffer, VkDeviceSize offset, VkDeviceSize size);
    Binder& storage_buffer(uint32_t binding, const vk::Buffer& buffer);
    // A buffer of the graph the pass declared, whole.
    Binder& uniform(uint32_t binding, const std::string& buffer);
    Binder& storage_buffer(uint32_t binding, const std::string& buffer);
    template <typename T>
    Binder& constants(const T& value) {
      return constants_bytes(&value, sizeof(T));
    }
    Binder& constants_bytes(const void* data, uint32_t size);
    void dispatch(uint32_t x, uint32_t y, uint32_t z = 1);
    void dispatch_over(const std::string& image, uint32_t local_x, uint32_t local_y);
    void dispatch_over(VkExtent2D extent, uint32_t local_x, uint32_t local_y);
    void draw(uint32_t vertex_count);  // full-screen triangle: draw(3)
    void draw_indexed(VkBuffer vertices, VkBuffer indices, uint32_t index_count, uint32_t first_index = 0);

   private:
    void flush();
    PassContext& ctx_;
    const vk::Pipeline& pipeline_;
    vk::DescriptorPush push_;
  };

  PassContext(const vk::Context& vk, VkCommandBuffer cmd, uint64_t frame, uint32_t slot, VkSampler linear,
              VkSampler nearest)
      : vk(vk), cmd(cmd), frame(frame), slot(slot), linear_(linear), nearest_(nearest) {}

  const vk::Context& vk;
  VkCommandBuffer cmd;
  uint64_t frame;  // frame index, for animation and jitter
  uint32_t slot;   // frame-in-flight slot, for per-frame buffers

  // An image as this pass declared it; with `mip`, that single level.
  BoundImage image(const std::string& name, std::optional<uint32_t> mip = {}) const;
  BoundImage history(const std::string& name) const;    // the previous frame's version
  VkImage image_handle(const std::string& name) const;  // for transfer commands
  BoundBuffer buffer(const std::string& name) const;    // a buffer as this pass declared it
  // The size of any image of the compiled graph (mip 0), whether this pass accesses it or not: a
  // size is known before the frame, so it needs no declaration and orders nothing.
  VkExtent2D extent(const std::string& image) const;
  Binder bind(const vk::Pipeline& pipeline) { return Binder(*this, pipeline); }
  VkSampler sampler(Sampling sampling) const { return sampling == Sampling::Linear ? linear_ : nearest_; }
  // Says that the pass records nothing in this frame (its settings leave it nothing to do): the
  // frame's timings report it idle rather than a near-zero time. Call it instead of recording.
  void skip() { skipped_ = true; }
  bool skipped() const { return skipped_; }

 private:
  friend class Executor;
  struct Access {
    std::string name;
    bool history;
    uint32_t base_mip, mip_count;
    VkImageLayout layout;
    const vk::Image* image;
    uint64_t generation;
  };
  VkSampler linear_, nearest_;
  bool skipped_ = false;
  const CompiledGraph* graph_ = nullptr;
  std::vector<Access> accesses_;
  std::vector<std::pair<std::string, BoundBuffer>> buffers_;
};

struct PassTiming {
  std::string name;
  double gpu_ms = 0;  // 0 when idle: its timestamps bracket no work of its own
  double cpu_ms = 0;  // time to record the pass, barriers included
  bool idle = false;  // the pass recorded nothing in this frame (PassContext::skip)
};

class Executor {
 public:
  Executor(const vk::Context& ctx, uint32_t frames_in_flight, bool gpu_timing);
  // Waits for the device when a recorded frame may still use its images, buffers or queries
  // (replaced ones included), so it may be destroyed with frames in flight; not after
  // frames_finished().
  ~Executor();
  Executor(const Executor&) = delete;
  Executor& operator=(const Executor&) = delete;

  // The owner knows that every frame recorded so far has finished (it retired the executor with
  // a FrameRetireList, say): destroying it then needs no device wait.
  void frames_finished() { frames_finished_ = true; }

  // Compiles the graph for these outputs and size. Images and buffers whose description and size
  // did not change are kept; others are created anew (with a new BoundImage::generation), and the
  // ones they replace are destroyed once no frame in flight can use them (no device wait). History
  // images start cleared. Imported buffers that the frames after this prepare no longer use are
  // forgotten by the barrier tracker at that time too (their owner may destroy them then).
  // `surface`: the size of SizeRule::surface() images ({0, 0}: the output's).
  void prepare(const RenderGraph& graph, const std::vector<std::string>& outputs, VkExtent2D extent,
               VkExtent2D surface = {});
  const CompiledGraph& compiled() const { return compiled_; }

  // Records frame `frame` in frame-in-flight `slot`. Frame `frame - frames_in_flight` and all
  // before it must have finished (the caller waited for the slot's fence or timeline value, as it
  // must before reusing the slot anyway): that is when replaced images and buffers are destroyed.
  void record(VkCommandBuffer cmd, uint32_t slot, uint64_t frame);
  // Timings of the frame last recorded in `slot`, every live pass in execution order (the idle
  // ones marked so); call after its fence. Empty if not available.
  std::optional<std::vector<PassTiming>> timings(uint32_t slot);
  bool gpu_timing() const { return timer_ != nullptr; }

  // Reads mip 0 of an image as the last recorded frame left it. Waits for the device.
  Readback read_image(const std::string& name);
  // The compiled graph as DOT, with the barriers of the last recorded frame.
  std::string dot() const { return to_dot(compiled_, last_barriers_, ids_); }

 private:
  struct Physical {
    vk::ImageInfo info;
    vk::Image image;
    uint64_t generation;
  };
  struct TransientBuffer {
    VkDeviceSize size;
    VkBufferUsageFlags usage;
    vk::Buffer buffer;
  };
  // What a prepare() replaced, kept until the last frame that used it is done: images, transient
  // buffers, and the keys of the imported buffers the frames before it used (the tracker forgets
  // those that no later frame used).
  struct Retired {
    uint64_t last_frame;
    std::vector<Physical> images;
    std::vector<vk::Buffer> buffers;
    std::vector<uint64_t> imported_keys;
  };
  const Physical& physical(uint32_t image, bool history, uint64_t frame) const;
  void clear_history_images(const std::vector<uint32_t>& ids);
  void retire(Retired retired);
  void forget(const Retired& retired);                                       // before it is destroyed
  void bind_transient_buffers();                                             // in prepare()
  std::vector<PassContext::BoundBuffer> bound_buffers(uint32_t slot) const;  // per compiled buffer

  const vk::Context& ctx_;
  const RenderGraph* graph_ = nullptr;
  uint32_t frames_in_flight_;
  CompiledGraph compiled_;
  PhysicalIds ids_;
  std::map<uint32_t, Physical> physical_;  // by physical id
  uint32_t next_id_ = 0;
  std::map<std::string, TransientBuffer> buffers_;  // by name
  // Per compiled buffer: a transient buffer's binding, which only prepare() changes; an imported
  // buffer's entry is left null and asked of its source at every record (bound_buffers).
  std::vector<PassContext::BoundBuffer> transient_bindings_;
  vk::FrameRetireList<Retired> retired_;
  std::map<uint64_t, uint64_t> imported_last_frame_;  // imported buffer key -> last frame using it
  bool recorded_ = false;         // whether any frame was recorded (else nothing retired was used)
  bool frames_finished_ = false;  // frames_finished() since the last record
  BarrierTracker tracker_;
  std::unique_ptr<GpuTimer> timer_;
  // Per slot, the passes of the frame last recorded in it (name, cpu_ms, idle; gpu_ms is filled
  // in by timings()), one record per pass so that no field can get out of step with another.
  // Empty once timings() has returned them.
  std::vector<std::vector<PassTiming>> slot_timings_;
  FrameBarriers last_barriers_;
  uint64_t last_frame_ = 0;
  vk::Sampler linear_, nearest_;
  vk::OneShotCommands one_shot_;
};

}  // namespace filterlab::graph
