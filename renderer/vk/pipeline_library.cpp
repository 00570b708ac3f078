#include "vk/pipeline_library.h"

#include "io/input_file.h"

#include <fstream>
#include <functional>
#include <regex>
#include <sstream>
#include <stdexcept>

namespace filterlab::vk {

namespace fs = std::filesystem;

namespace {

// One spelling per file, so "shaders/./a.glsl" and "shaders/a.glsl" are one watched file.
fs::path normalized(const fs::path& path) {
  std::error_code ec;
  fs::path absolute = fs::absolute(path, ec);
  return (ec ? path : absolute).lexically_normal();
}

std::optional<std::string> read_text(const fs::path& file) {
  try {
    return io::read_input_file(file, io::kMaxShaderFileBytes);
  } catch (const io::InputError&) {
    return std::nullopt;  // gone, or not a regular file: the compile that follows says why
  }
}

struct IncludeLine {
  std::string target;
  bool standard;  // <file>: searched in the include folder only, as shader_compiler.cpp does
};

// `#include "x"` or `#include <x>`, with the blanks the preprocessor allows around '#'.
std::optional<IncludeLine> parse_include(const std::string& line) {
  size_t i = line.find_first_not_of(" \t");
  if (i == std::string::npos || line[i] != '#') return std::nullopt;
  i = line.find_first_not_of(" \t", i + 1);
  if (i == std::string::npos || line.compare(i, 7, "include") != 0) return std::nullopt;
  i = line.find_first_not_of(" \t", i + 7);
  if (i == std::string::npos || (line[i] != '"' && line[i] != '<')) return std::nullopt;
  const char close = line[i] == '"' ? '"' : '>';
  const size_t end = line.find(close, i + 1);
  if (end == std::string::npos || end == i + 1) return std::nullopt;
  return IncludeLine{line.substr(i + 1, end - i - 1), close == '>'};
}

// Adds `file` and, recursively, what it includes. For each #include the candidates are listed in
// the compiler's search order up to the first that exists: a file created earlier in that order
// would change what the shader includes, so it is watched too.
void collect_includes(const fs::path& file, const fs::path& include_dir, std::set<fs::path>& out) {
  if (!out.insert(normalized(file)).second) return;  // seen: also ends include cycles
  const std::optional<std::string> text = read_text(file);
  if (!text) return;
  std::istringstream lines(*text);
  std::string line;
  while (std::getline(lines, line)) {
    const std::optional<IncludeLine> include = parse_include(line);
    if (!include) continue;
    std::vector<fs::path> candidates;
    if (!include->standard) candidates.push_back(file.parent_path() / include->target);
    candidates.push_back(include_dir / include->target);
    for (const fs::path& candidate : candidates) {
      std::error_code ec;
      if (fs::is_regular_file(candidate, ec)) {
        collect_includes(candidate, include_dir, out);
        break;
      }
      out.insert(normalized(candidate));  // missing: watched so that creating it triggers a build
    }
  }
}

std::string pipeline_name(const std::variant<ComputePipelineDesc, GraphicsPipelineDesc>& desc) {
  if (const auto* compute = std::get_if<ComputePipelineDesc>(&desc)) return compute->shader;
  const auto& graphics = std::get<GraphicsPipelineDesc>(desc);
  return graphics.vertex_shader + "+" + graphics.fragment_shader;
}

}  // namespace

// ---- PipelineRef ------------------------------------------------------------------------------

PipelineRef& PipelineRef::operator=(PipelineRef&& other) noexcept {
  if (this != &other) {
    reset();
    library_ = other.library_;
    handle_ = other.handle_;
    owned_ = std::move(other.owned_);
    other.library_ = nullptr;
    other.handle_ = {};
  }
  return *this;
}

const Pipeline& PipelineRef::operator*() const {
  if (owned_) return *owned_;
  if (!library_) throw std::logic_error("empty PipelineRef dereferenced");
  return library_->get(handle_);
}

void PipelineRef::reset() {
  if (library_) library_->release(handle_);
  library_ = nullptr;
  handle_ = {};
  owned_.reset();
}

PipelineRef make_pipeline(PipelineLibrary* library, const Context& ctx, const ShaderSource& source,
                          const ComputePipelineDesc& desc) {
  if (library) return library->add(desc);
  return PipelineRef(std::make_unique<Pipeline>(ctx, source, desc));
}

PipelineRef make_pipeline(PipelineLibrary* library, const Context& ctx, const ShaderSource& source,
                          const GraphicsPipelineDesc& desc) {
  if (library) return library->add(desc);
  return PipelineRef(std::make_unique<Pipeline>(ctx, source, desc));
}

// ---- compiler logs ----------------------------------------------------------------------------

ShaderError parse_compiler_log(const std::string& log) {
  ShaderError error;
  error.log = log;
  // glslang through shaderc: "<file>:<line>: error: <message>"; the file may be an included one.
  // At most 9 digits, so that stoul cannot throw inside poll()'s error handling.
  static const std::regex located(R"(^(.+?):(\d{1,9}): (?:fatal )?error: (.*)$)");
  // Messages with no line: "<file>: error: ...", or the loaders' "cannot read shader <file>".
  static const std::regex file_only(R"(^(.+?): (?:fatal )?error: (.*)$)");
  // "cannot read SPIR-V <file>: <why> (set --shader-dir)", "cannot read shader <file>: <why>".
  static const std::regex unreadable(
      R"(^(?:cannot read|corrupt) (?:shader|SPIR-V) (.+?)(?:: .*?)?(?: \(set --shader-dir\))?$)");
  std::istringstream lines(log);
  std::string line, first_line;
  std::smatch m;
  while (std::getline(lines, line)) {
    if (first_line.empty() && !line.empty()) first_line = line;
    if (std::regex_match(line, m, located)) {
      error.file = m[1];
      error.line = static_cast<uint32_t>(std::stoul(m[2]));
      error.message = m[3];
      return error;
    }
  }
  lines = std::istringstream(log);
  while (std::getline(lines, line)) {
    if (std::regex_match(line, m, file_only)) {
      error.file = m[1];
      error.message = m[2];
      return error;
    }
    if (std::regex_match(line, m, unreadable)) {
      error.file = m[1];
      error.message = line;
      return error;
    }
  }
  error.message = first_line;
  return error;
}

// ---- PipelineLibrary --------------------------------------------------------------------------

PipelineLibrary::PipelineLibrary(const Context& ctx, ShaderSource source, PipelineLibraryOptions options)
    : ctx_(ctx), source_(std::move(source)), options_(options) {
  if (options_.frames_in_flight == 0)
    throw std::invalid_argument("PipelineLibrary: frames_in_flight must be >= 1");
}

PipelineLibrary::~PipelineLibrary() {
  // Retired pipelines may belong to frames still in flight; live ones to the last frame. Waiting
  // here costs nothing at shutdown and makes the order of destruction against the frame ring moot.
  if (!retired_.empty() || size() > 0) vkDeviceWaitIdle(ctx_.device());
  retired_.destroy_all();
  entries_.clear();
}

PipelineRef PipelineLibrary::add(const ComputePipelineDesc& desc) {
  auto e = std::make_unique<Entry>();
  e->desc = desc;
  return add_entry(std::move(e));
}

PipelineRef PipelineLibrary::add(const GraphicsPipelineDesc& desc) {
  auto e = std::make_unique<Entry>();
  e->desc = desc;
  return add_entry(std::move(e));
}

PipelineRef PipelineLibrary::add_entry(std::unique_ptr<Entry> e) {
  for (uint32_t i = 0; i < entries_.size(); ++i)
    if (entries_[i] && entries_[i]->desc == e->desc) {
      ++entries_[i]->refs;
      return PipelineRef(*this, PipelineHandle{i});
    }
  e->status.name = pipeline_name(e->desc);
  e->deps = scan_dependencies(*e);
  // File states are taken before the build so that an edit made while it runs is seen next poll.
  const auto states = snapshot(e->deps);
  e->pipeline = build(*e);  // throws: nothing was registered
  watch(states);
  entries_.push_back(std::move(e));
  return PipelineRef(*this, PipelineHandle{static_cast<uint32_t>(entries_.size() - 1)});
}

PipelineLibrary::Entry& PipelineLibrary::entry(PipelineHandle handle) const {
  if (handle.index >= entries_.size() || !entries_[handle.index])
    throw std::logic_error("pipeline handle " + std::to_string(handle.index) +
                           " is not in the library (released?)");
  return *entries_[handle.index];
}

const Pipeline& PipelineLibrary::get(PipelineHandle handle) const {
  return *entry(handle).pipeline;
}

const PipelineStatus& PipelineLibrary::status(PipelineHandle handle) const {
  return entry(handle).status;
}

const std::set<fs::path>& PipelineLibrary::dependencies(PipelineHandle handle) const {
  return entry(handle).deps;
}

std::vector<ShaderError> PipelineLibrary::errors() const {
  std::vector<ShaderError> out;
  for (const auto& e : entries_)
    if (e && e->status.error) out.push_back(*e->status.error);
  return out;
}

std::vector<PipelineHandle> PipelineLibrary::handles() const {
  std::vector<PipelineHandle> out;
  for (uint32_t i = 0; i < entries_.size(); ++i)
    if (entries_[i]) out.push_back({i});
  return out;
}

size_t PipelineLibrary::size() const {
  size_t n = 0;
  for (const auto& e : entries_) n += e != nullptr;
  return n;
}

std::vector<fs::path> PipelineLibrary::watched_files() const {
  std::vector<fs::path> out;
  for (const auto& [path, state] : files_) out.push_back(path);
  return out;
}

std::vector<std::string> PipelineLibrary::stage_names(const Entry& e) const {
  if (const auto* compute = std::get_if<ComputePipelineDesc>(&e.desc)) return {compute->shader};
  const auto& graphics = std::get<GraphicsPipelineDesc>(e.desc);
  return {graphics.vertex_shader, graphics.fragment_shader};
}

fs::path PipelineLibrary::stage_path(const std::string& name) const {
  const ShaderName shader = ShaderName::parse(name);
  return source_.glsl_dir ? *source_.glsl_dir / shader.file : source_.spirv_dir / shader.spirv_file();
}

std::set<fs::path> PipelineLibrary::scan_dependencies(const Entry& e) const {
  std::set<fs::path> deps;
  for (const std::string& name : stage_names(e)) {
    if (source_.glsl_dir) collect_includes(stage_path(name), *source_.glsl_dir, deps);
    else
      deps.insert(normalized(stage_path(name)));  // the build's SPIR-V: rebuilt by `make filterlab_shaders`
  }
  return deps;
}

std::unique_ptr<Pipeline> PipelineLibrary::build(const Entry& e) const {
  return std::visit([&](const auto& desc) { return std::make_unique<Pipeline>(ctx_, source_, desc); },
                    e.desc);
}

std::map<fs::path, PipelineLibrary::FileState> PipelineLibrary::snapshot(
    const std::set<fs::path>& files) const {
  std::map<fs::path, FileState> states;
  if (!options_.watch) return states;
  for (const fs::path& file : files) refresh(file, states[file]);
  return states;
}

void PipelineLibrary::watch(const std::map<fs::path, FileState>& states) {
  // A file some other pipeline already watches keeps its state: this poll compared it already.
  for (const auto& [file, state] : states) files_.try_emplace(file, state);
}

void PipelineLibrary::forget_unwatched() {
  std::set<fs::path> needed;
  for (const auto& e : entries_)
    if (e) needed.insert(e->deps.begin(), e->deps.end());
  std::erase_if(files_, [&](const auto& item) { return !needed.count(item.first); });
}

bool PipelineLibrary::refresh(const fs::path& file, FileState& state) const {
  std::error_code ec;
  const bool exists = fs::is_regular_file(file, ec);
  if (!exists) {
    const bool changed = state.exists;
    state = {};
    return changed;
  }
  const auto mtime = fs::last_write_time(file, ec);
  const uintmax_t size = fs::file_size(file, ec);
  if (state.exists && mtime == state.mtime && size == state.size) return false;
  // Time or size moved: compare content, so that saving an unchanged file rebuilds nothing.
  const std::optional<std::string> text = read_text(file);
  const size_t hash = std::hash<std::string>{}(text.value_or(std::string()));
  const bool changed = !state.exists || hash != state.hash || !text;
  state = {true, mtime, size, hash};
  return changed;
}

void PipelineLibrary::retire(std::unique_ptr<Pipeline> pipeline, uint64_t first_unused_frame) {
  if (pipeline) retired_.retire(std::move(pipeline), first_unused_frame);
}

uint32_t PipelineLibrary::destroy_retired(uint64_t frame) {
  // At poll(frame) the app has waited at least for frame - frames_in_flight - 1 (the frame ring
  // waits for frame - frames_in_flight only once frame `frame` begins, which may be after poll).
  // So frames before frame - frames_in_flight have finished.
  if (frame < options_.frames_in_flight) return 0;
  return static_cast<uint32_t>(retired_.destroy_finished(frame - options_.frames_in_flight));
}

void PipelineLibrary::release(PipelineHandle handle) {
  if (handle.index >= entries_.size() || !entries_[handle.index]) return;  // called from destructors
  if (--entries_[handle.index]->refs > 0) return;
  // Frames up to the latest polled one may have recorded it.
  retire(std::move(entries_[handle.index]->pipeline), polled_ ? frame_ + 1 : 0);
  entries_[handle.index].reset();
  forget_unwatched();
}

PollReport PipelineLibrary::poll(uint64_t frame) {
  PollReport report;
  frame_ = frame;
  polled_ = true;
  report.destroyed = destroy_retired(frame);
  if (!options_.watch) return report;
  const auto now = std::chrono::steady_clock::now();
  if (last_check_ && now - *last_check_ < options_.poll_interval) return report;
  last_check_ = now;
  report.checked = true;

  std::set<fs::path> changed;
  for (auto& [file, state] : files_)
    if (refresh(file, state)) changed.insert(file);
  report.changed_files = static_cast<uint32_t>(changed.size());
  if (changed.empty()) return report;

  for (auto& e : entries_) {
    if (!e) continue;
    bool affected = false;
    for (const fs::path& file : changed) affected = affected || e->deps.count(file) > 0;
    if (!affected) continue;
    // The edit may have added or removed includes: scan again, whether or not the build succeeds.
    e->deps = scan_dependencies(*e);
    watch(snapshot(e->deps));
    try {
      std::unique_ptr<Pipeline> rebuilt = build(*e);
      retire(std::move(e->pipeline), frame);  // frame `frame` records with the new one
      e->pipeline = std::move(rebuilt);
      e->status.error.reset();
      ++e->status.revision;
      ++report.rebuilt;
    } catch (const std::exception& failure) {
      // Compile errors and pipeline creation failures alike: keep the last good pipeline.
      ShaderError error = parse_compiler_log(failure.what());
      error.pipeline = e->status.name;
      if (error.file.empty()) error.file = stage_path(stage_names(*e).front()).string();
      e->status.error = std::move(error);
      ++e->status.failed_builds;
      ++report.failed;
    }
  }
  forget_unwatched();
  return report;
}

}  // namespace filterlab::vk
