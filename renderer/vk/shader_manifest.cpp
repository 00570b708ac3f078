#include "vk/shader_manifest.h"

#include "io/input_file.h"

#include <cstdio>

namespace filterlab::vk {

namespace {
#include "shader_manifest.inc"

constexpr uint32_t kSpirvMagic = 0x07230203;
}  // namespace

const std::vector<std::string>& shader_source_files() {
  static const std::vector<std::string> files(std::begin(kShaderSources), std::end(kShaderSources));
  return files;
}

const std::vector<std::string>& shader_spirv_files() {
  static const std::vector<std::string> files(std::begin(kShaderSpirv), std::end(kShaderSpirv));
  return files;
}

void check_shader_files(const ShaderSource& shaders) {
  const std::filesystem::path& folder = shaders.glsl_dir ? *shaders.glsl_dir : shaders.spirv_dir;
  const char* flag = shaders.glsl_dir ? "--shader-source" : "--shader-dir";
  std::error_code ec;
  if (!std::filesystem::is_directory(folder, ec))
    throw ShaderCompileError(std::string(flag) + " " + folder.string() + ": not a folder");
  if (shaders.glsl_dir) {
    for (const std::string& file : shader_source_files()) try {
        io::check_input_file(folder / file, io::kMaxShaderFileBytes);
      } catch (const io::InputError& e) {
        throw ShaderCompileError(std::string(flag) + ": " + e.what());
      }
    return;
  }
  for (const std::string& file : shader_spirv_files()) {
    const std::filesystem::path path = folder / file;
    uint64_t bytes = 0;
    uint32_t magic = 0;
    try {
      io::File f = io::open_input_file(path, io::kMaxShaderFileBytes);
      bytes = io::check_input_file(path, io::kMaxShaderFileBytes);
      if (std::fread(&magic, 4, 1, f.get()) != 1) magic = 0;
    } catch (const io::InputError& e) {
      throw ShaderCompileError(std::string(e.what()) + " (set --shader-dir)");
    }
    if (bytes == 0 || bytes % 4 != 0)
      throw ShaderCompileError("invalid SPIR-V " + path.string() + ": " + std::to_string(bytes) +
                               " bytes, not a whole number of words");
    if (magic != kSpirvMagic) throw ShaderCompileError("invalid SPIR-V " + path.string() + ": no SPIR-V magic number");
  }
}

}  // namespace filterlab::vk
