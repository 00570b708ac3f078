#pragma once
// Run-time GLSL -> SPIR-V through shaderc, for shader hot reload and `--shader-source`.
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace filterlab::vk {

class ShaderCompileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Stage from the file extension (.vert .frag .comp). #include resolves against the file's own
// folder, then include_dir. Errors carry shaderc's messages with file and line.
std::vector<uint32_t> compile_glsl_file(const std::filesystem::path& file,
                                        const std::filesystem::path& include_dir);

}  // namespace filterlab::vk
