#pragma once
// Shader hot reload: a library that owns pipelines, watches the files their shaders are built
// from (the stage files and everything they #include) and rebuilds a pipeline when one of them
// changes. A failed build keeps the last good pipeline and records the compiler's log for the UI;
// the next successful build replaces it. Passes hold a PipelineRef and write `ctx.bind(*ref)` as
// they would with a std::unique_ptr<Pipeline>, so a rebuild needs nothing from them.
//
// Change detection polls each watched file's modification time and size, at most every
// `poll_interval`, and rebuilds only when a changed file's content hash differs too. Why not
// inotify: editors that save by writing a new file and renaming it (vim, sed -i, many IDEs) replace
// the watched inode, so a robust inotify watcher ends up watching directories and re-arming watches;
// inotify also misses edits made through network or container bind mounts. A few dozen stat() calls
// four times a second cost nothing next to a frame, need no thread or file descriptor, and tests can
// set a file's time explicitly instead of sleeping.
//
// Single-threaded: call everything from the thread that records frames.
#include "vk/pipelines.h"
#include "vk/retire_list.h"

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <variant>
#include <vector>

namespace filterlab::vk {

class PipelineLibrary;

struct PipelineHandle {
  static constexpr uint32_t kInvalid = UINT32_MAX;
  uint32_t index = kInvalid;
  bool valid() const { return index != kInvalid; }
  friend bool operator==(PipelineHandle a, PipelineHandle b) { return a.index == b.index; }
};

// A pipeline in a library, resolved to the current build every time it is dereferenced; or, built
// without a library (make_pipeline with none), a plain owner of one pipeline. Move-only; releasing
// it (destruction or reset) hands a library's pipeline back, and the library destroys it once the
// frames that may use it have finished. The library must outlive its refs.
class PipelineRef {
 public:
  PipelineRef() = default;
  PipelineRef(PipelineLibrary& library, PipelineHandle handle) : library_(&library), handle_(handle) {}
  explicit PipelineRef(std::unique_ptr<Pipeline> owned) : owned_(std::move(owned)) {}
  ~PipelineRef() { reset(); }
  PipelineRef(PipelineRef&& other) noexcept { *this = std::move(other); }
  PipelineRef& operator=(PipelineRef&& other) noexcept;
  PipelineRef(const PipelineRef&) = delete;
  PipelineRef& operator=(const PipelineRef&) = delete;

  const Pipeline& operator*() const;
  const Pipeline* operator->() const { return &**this; }
  explicit operator bool() const { return library_ != nullptr || owned_ != nullptr; }
  PipelineHandle handle() const { return handle_; }  // invalid when not from a library
  PipelineLibrary* library() const { return library_; }
  void reset();

 private:
  PipelineLibrary* library_ = nullptr;
  PipelineHandle handle_;
  std::unique_ptr<Pipeline> owned_;
};

// Where and why a build failed, for the UI. `file` and `line` locate the compiler's first error
// (line 0 when the message names no line, e.g. a missing file).
struct ShaderError {
  std::string pipeline;  // the pipeline's name: its shader, or "vertex+fragment"
  std::string file;
  uint32_t line = 0;
  std::string message;  // the first error line, without the location
  std::string log;      // everything the compiler said
};

struct PipelineStatus {
  std::string name;
  std::optional<ShaderError> error;  // set while the files do not build; the last good pipeline is in use
  uint32_t revision = 0;             // successful rebuilds since creation
  uint32_t failed_builds = 0;
  bool ok() const { return !error; }
};

struct PollReport {
  bool checked = false;  // false: within poll_interval of the previous check, nothing looked at
  uint32_t changed_files = 0;
  uint32_t rebuilt = 0;    // pipelines swapped to a new build
  uint32_t failed = 0;     // pipelines whose rebuild failed (they keep their last good build)
  uint32_t destroyed = 0;  // retired pipelines destroyed because no frame in flight can use them
};

struct PipelineLibraryOptions {
  uint32_t frames_in_flight = 2;
  std::chrono::milliseconds poll_interval{250};  // 0: look at the files on every poll
  bool watch = true;                             // false: never look at files (a release build)
};

class PipelineLibrary {
 public:
  // With source.glsl_dir the library watches the GLSL files (shaderc compiles them at run time);
  // without it, the build's .spv files (so `make filterlab_shaders` reloads too).
  PipelineLibrary(const Context& ctx, ShaderSource source, PipelineLibraryOptions options = {});
  ~PipelineLibrary();  // waits for the device when retired pipelines may still be in use
  PipelineLibrary(const PipelineLibrary&) = delete;
  PipelineLibrary& operator=(const PipelineLibrary&) = delete;

  // Builds now, or hands out the pipeline already built for an identical description (a pass added
  // to several graphs, the benchmark's rotated instances). A first build has no last good pipeline
  // to fall back on, so it throws like the Pipeline constructor (ShaderCompileError with the
  // compiler's log).
  PipelineRef add(const ComputePipelineDesc& desc);
  PipelineRef add(const GraphicsPipelineDesc& desc);

  const Pipeline& get(PipelineHandle handle) const;
  const PipelineStatus& status(PipelineHandle handle) const;
  // Every pipeline whose last build failed, in creation order.
  std::vector<ShaderError> errors() const;

  // Once per frame, before recording frame `frame` (a counter that grows by one per frame): looks
  // at the watched files (at most every poll_interval), rebuilds the pipelines that depend on a
  // changed file and swaps in the successful builds; frame `frame` records with them. Pipelines
  // replaced or released are destroyed at the first poll with frame >= (the first frame that no
  // longer uses them) + frames_in_flight: by then the frame ring has waited for every frame that
  // could have used them. Never throws for a shader that does not build.
  PollReport poll(uint64_t frame);

  // Hands the pipeline back (PipelineRef does this); once every ref has, destroyed as in poll().
  void release(PipelineHandle handle);

  size_t size() const;                          // live pipelines
  std::vector<PipelineHandle> handles() const;  // the live ones, in creation order
  size_t pending_destruction() const { return retired_.size(); }
  std::vector<std::filesystem::path> watched_files() const;
  // The files a pipeline's build reads: its stages and their includes, found by scanning #include
  // lines the way the run-time compiler resolves them (a superset: includes in comments or inactive
  // #if branches count too, which costs at most a spurious rebuild).
  const std::set<std::filesystem::path>& dependencies(PipelineHandle handle) const;
  const ShaderSource& source() const { return source_; }

 private:
  struct FileState {
    bool exists = false;
    std::filesystem::file_time_type mtime{};
    uintmax_t size = 0;
    size_t hash = 0;
  };
  struct Entry {
    std::variant<ComputePipelineDesc, GraphicsPipelineDesc> desc;
    std::unique_ptr<Pipeline> pipeline;
    PipelineStatus status;
    std::set<std::filesystem::path> deps;
    uint32_t refs = 1;  // PipelineRefs handed out: an identical description shares the entry
  };
  PipelineRef add_entry(std::unique_ptr<Entry> entry);
  Entry& entry(PipelineHandle handle) const;
  std::vector<std::string> stage_names(const Entry& e) const;
  std::set<std::filesystem::path> scan_dependencies(const Entry& e) const;
  std::unique_ptr<Pipeline> build(const Entry& e) const;
  std::filesystem::path stage_path(const std::string& name) const;
  std::map<std::filesystem::path, FileState> snapshot(const std::set<std::filesystem::path>& files) const;
  void watch(const std::map<std::filesystem::path, FileState>& states);
  void forget_unwatched();
  bool refresh(const std::filesystem::path& file, FileState& state) const;  // true: content changed
  void retire(std::unique_ptr<Pipeline> pipeline, uint64_t first_unused_frame);
  uint32_t destroy_retired(uint64_t frame);

  const Context& ctx_;
  ShaderSource source_;
  PipelineLibraryOptions options_;
  std::vector<std::unique_ptr<Entry>> entries_;  // by handle index; released slots are null
  std::map<std::filesystem::path, FileState> files_;
  FrameRetireList<std::unique_ptr<Pipeline>> retired_;
  uint64_t frame_ = 0;  // the frame of the latest poll
  bool polled_ = false;
  std::optional<std::chrono::steady_clock::time_point> last_check_;
};

// From `library` when there is one (hot reload), else built directly and owned by the ref; the
// library builds from its own ShaderSource, which should be `source`. Lets passes and filters take
// an optional library (PassEnv::pipelines) with one line changed where they build pipelines.
PipelineRef make_pipeline(PipelineLibrary* library, const Context& ctx, const ShaderSource& source,
                          const ComputePipelineDesc& desc);
PipelineRef make_pipeline(PipelineLibrary* library, const Context& ctx, const ShaderSource& source,
                          const GraphicsPipelineDesc& desc);

// Splits a compiler log into the first error's file, line and message ("file:12: error: ..."),
// exposed for tests.
ShaderError parse_compiler_log(const std::string& log);

}  // namespace filterlab::vk
