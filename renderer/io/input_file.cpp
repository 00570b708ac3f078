#include "io/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace filterlab::io {
namespace {

[[noreturn]] void refuse(const std::filesystem::path& path, const std::string& problem) {
  throw InputError(path, problem);
}

const char* kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "it is a folder";
  if (S_ISFIFO(mode)) return "it is a FIFO (a named pipe), not a regular file";
  if (S_ISCHR(mode)) return "it is a character device, not a regular file";
  if (S_ISBLK(mode)) return "it is a block device, not a regular file";
  if (S_ISSOCK(mode)) return "it is a socket, not a regular file";
  return "it is not a regular file";
}

std::string size_text(uint64_t bytes) {
  if (bytes >= kMiB) return std::to_string(bytes / kMiB) + " MiB";
  return std::to_string(bytes) + " bytes";
}

uint64_t check_status(const std::filesystem::path& path, const struct stat& st, uint64_t max_bytes) {
  if (!S_ISREG(st.st_mode)) refuse(path, kind_of(st.st_mode));
  const uint64_t size = uint64_t(st.st_size);
  if (size > max_bytes)
    refuse(path, "it is " + size_text(size) + ", more than the " + size_text(max_bytes) +
                     " filterlab reads from such a file");
  return size;
}

}  // namespace

uint64_t check_input_file(const std::filesystem::path& path, uint64_t max_bytes) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) refuse(path, std::strerror(errno));
  return check_status(path, st, max_bytes);
}

File open_input_file(const std::filesystem::path& path, uint64_t max_bytes, uint64_t* size) {
  check_input_file(path, max_bytes);
  // O_NONBLOCK: should the path have become a FIFO since the check, the open returns at once.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) refuse(path, std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    refuse(path, std::strerror(err));
  }
  try {
    const uint64_t bytes = check_status(path, st, max_bytes);
    if (size) *size = bytes;
  } catch (...) {
    ::close(fd);
    throw;
  }
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  std::FILE* f = ::fdopen(fd, "rb");
  if (!f) {
    const int err = errno;
    ::close(fd);
    refuse(path, std::strerror(err));
  }
  return File(f);
}

std::string read_input_file(const std::filesystem::path& path, uint64_t max_bytes) {
  File f = open_input_file(path, max_bytes);
  return read_open_file(f.get(), path, max_bytes);
}

std::string read_open_file(std::FILE* file, const std::filesystem::path& path, uint64_t max_bytes) {
  std::string bytes;
  char chunk[1 << 16];
  size_t n;
  // Read to the end, not to the size stat gave: the file may have grown, but never past the limit.
  while ((n = std::fread(chunk, 1, sizeof chunk, file)) > 0) {
    if (bytes.size() + n > max_bytes) refuse(path, "it grew past " + size_text(max_bytes) + " while read");
    bytes.append(chunk, n);
  }
  if (std::ferror(file)) refuse(path, std::strerror(errno));
  return bytes;
}

bool path_inside(const std::filesystem::path& path, const std::filesystem::path& folder) {
  std::error_code ec;
  const std::filesystem::path p = std::filesystem::weakly_canonical(std::filesystem::absolute(path), ec);
  if (ec) return false;
  const std::filesystem::path f = std::filesystem::weakly_canonical(std::filesystem::absolute(folder), ec);
  if (ec) return false;
  auto pi = p.begin();
  for (auto fi = f.begin(); fi != f.end(); ++fi, ++pi) {
    if (fi->empty() && std::next(fi) == f.end()) break;  // a trailing separator
    if (pi == p.end() || *pi != *fi) return false;
  }
  return true;
}

std::filesystem::path open_file_path(std::FILE* file) {
  std::error_code ec;
  const std::filesystem::path link = "/proc/self/fd/" + std::to_string(::fileno(file));
  std::filesystem::path target = std::filesystem::read_symlink(link, ec);
  return ec ? std::filesystem::path() : target;
}

std::string json_too_deep(const std::string& text) {
  int depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;  // the escaped character, whatever it is
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonDepth)
        return "JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels (byte " +
               std::to_string(i) + ")";
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return {};
}

}  // namespace filterlab::io
