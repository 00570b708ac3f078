#pragma once
// The shaders the build compiles (cmake/Shaders.cmake writes the list), so that a shader folder is
// checked before any device is opened: a --shader-dir missing a SPIR-V file, or holding an empty or
// truncated one, and a --shader-source folder missing a source, are refused at once (exit 2) rather
// than when the pass that needs the file is built.
#include "vk/pipelines.h"
#include "vk/shader_compiler.h"

#include <string>
#include <vector>

namespace filterlab::vk {

const std::vector<std::string>& shader_source_files();  // relative to shaders/
const std::vector<std::string>& shader_spirv_files();   // relative to the SPIR-V folder

// Throws ShaderCompileError naming the first file that is missing, not a regular file, larger than
// io::kMaxShaderFileBytes, or (SPIR-V) not a whole number of words after the SPIR-V magic number.
// SPIRV-Tools' full validation still runs on each module as it is loaded.
void check_shader_files(const ShaderSource& shaders);

}  // namespace filterlab::vk
