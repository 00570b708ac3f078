#pragma once
// The one way filterlab opens a file someone else may have made: images, kernels, SPIR-V and shader
// sources, tune tables, bench and evaluation JSON, report captures. The path must name a regular file
// (a FIFO would block the open or the read forever, /dev/zero never ends) no larger than the limit
// of its kind (a sparse 20 GB ".jpg" is refused before a byte is read). The file is opened without
// blocking and checked again on the open descriptor, so a path swapped for a FIFO between the check
// and the open is caught too.
#include "io/image_io.h"

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>

namespace filterlab::io {

// A file given by the user that cannot be read as what it should be: missing, not a regular file,
// too large, corrupt. Bad input: the commands exit 2 with its message, which names the file.
struct InputError : IoError {
  InputError(const std::filesystem::path& file, const std::string& why)
      : IoError("cannot read " + file.string() + ": " + why), path(file), reason(why) {}
  std::filesystem::path path;
  std::string reason;  // "it is a FIFO (a named pipe), not a regular file"
};

// The largest file of each kind filterlab reads.
inline constexpr uint64_t kMiB = 1ull << 20;
inline constexpr uint64_t kMaxImageFileBytes = 4096 * kMiB;  // a 16384^2 RGB float PFM is 3 GiB
inline constexpr uint64_t kMaxJsonFileBytes = 64 * kMiB;     // bench, evaluation, tune tables
inline constexpr uint64_t kMaxShaderFileBytes = 16 * kMiB;   // SPIR-V and GLSL sources
inline constexpr uint64_t kMaxCaptureFileBytes = 16 * kMiB;  // the PNGs a report inlines

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

// Throws InputError ("cannot read P: ...") unless `path` names a regular file of at most `max_bytes`
// bytes; returns its size. Nothing is opened.
uint64_t check_input_file(const std::filesystem::path& path, uint64_t max_bytes);
// check_input_file, then opens it for reading (binary) and checks the open file the same way; `size`,
// when given, receives the open file's size.
File open_input_file(const std::filesystem::path& path, uint64_t max_bytes, uint64_t* size = nullptr);
// The rest of an open file, at most `max_bytes` (`path` names it in errors).
std::string read_open_file(std::FILE* file, const std::filesystem::path& path, uint64_t max_bytes);
// The whole file, after the same checks.
std::string read_input_file(const std::filesystem::path& path, uint64_t max_bytes);

// JSON nested deeper than this is refused before it is parsed: a parser or a destructor that recurses
// per level overflows the stack on a file nested 20,000 deep (a glTF's `extras`), which no real file
// is. Every JSON reader checks (glTF, presets, tune tables, bench files).
inline constexpr int kMaxJsonDepth = 128;
// "" if `text` nests arrays and objects at most kMaxJsonDepth deep (strings, and escapes in them,
// skipped), else the reason ("JSON nested deeper than 128 levels (byte 130)"). Not a JSON validator.
std::string json_too_deep(const std::string& text);

// Whether `path` lies inside `folder` once both are resolved (links, "."/".."), compared by whole
// components: /a/bc is not inside /a/b.
bool path_inside(const std::filesystem::path& path, const std::filesystem::path& folder);
// The path an open file has now (/proc/self/fd): what a check of the path before the open can miss.
std::filesystem::path open_file_path(std::FILE* file);

}  // namespace filterlab::io
