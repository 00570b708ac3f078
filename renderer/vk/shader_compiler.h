#pragma once
// Run-time GLSL -> SPIR-V through shaderc, for shader hot reload and `--shader-source`.
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace filterlab::vk {

class ShaderCompileError : public std::runtime_error {
 public:
  explicit ShaderCompileError(const std::string& what) : std::runtime_error(what), line_(what) {}
  // A compiler's log (what()) and the one line that sums it up: what the command line prints.
  ShaderCompileError(const std::string& line, const std::string& log)
      : std::runtime_error(log + "\n" + line), line_(line) {}
  const std::string& line() const { return line_; }

 private:
  std::string line_;
};

// Stage from the file extension (.vert .frag .comp). #include resolves against the file's own
// folder, then include_dir. `variant` names one of the file's `//! variant NAME DEFINES...` lines
// (cmake/Shaders.cmake builds the same ones); empty for a file that declares none. Errors carry
// shaderc's messages with file and line.
std::vector<uint32_t> compile_glsl_file(const std::filesystem::path& file,
                                        const std::filesystem::path& include_dir,
                                        const std::string& variant = {});

// The defines of `variant` in a shader's source: "NAME" or "NAME=VALUE" each. Throws
// ShaderCompileError when the source declares variants and none is asked for, or not this one.
std::vector<std::string> variant_defines(const std::string& source, const std::string& variant,
                                         const std::string& file);

}  // namespace filterlab::vk
