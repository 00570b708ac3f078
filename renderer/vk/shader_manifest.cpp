#include "vk/shader_manifest.h"

#include "io/input_file.h"

#include <cstdio>
#include <string>

namespace filterlab::vk {

namespace {
#include "shader_manifest.inc"

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
        throw ShaderCompileError("cannot read shader " + e.path.string() + ": " + e.reason + " (" + flag + ")");
      }
    return;
  }
  for (const std::string& file : shader_spirv_files()) {
    const std::filesystem::path path = folder / file;
    uint64_t bytes = 0;
    std::string first_word(4, '\0');
    try {
      io::File f = io::open_input_file(path, io::kMaxShaderFileBytes, &bytes);
      first_word.resize(std::fread(first_word.data(), 1, 4, f.get()));
    } catch (const io::InputError& e) {
      throw ShaderCompileError("cannot read SPIR-V " + path.string() + ": " + e.reason + " (set --shader-dir)");
    }
    check_spirv_header(path, bytes, first_word);
  }
}

}  // namespace filterlab::vk
