#include "vk/shader_compiler.h"

#include "io/input_file.h"

#include <shaderc/shaderc.hpp>

#include <fstream>
#include <memory>
#include <sstream>

namespace filterlab::vk {

namespace {

std::string read_text(const std::filesystem::path& file) {
  try {
    return io::read_input_file(file, io::kMaxShaderFileBytes);
  } catch (const io::InputError& e) {
    throw ShaderCompileError("cannot read shader " + file.string() + ": " + e.reason);
  }
}

class Includer : public shaderc::CompileOptions::IncluderInterface {
 public:
  explicit Includer(std::filesystem::path include_dir) : include_dir_(std::move(include_dir)) {}

  shaderc_include_result* GetInclude(const char* requested, shaderc_include_type type, const char* requesting,
                                     size_t) override {
    auto* result = new Result;
    std::filesystem::path candidates[] = {std::filesystem::path(requesting).parent_path() / requested,
                                          include_dir_ / requested};
    for (const auto& path : candidates) {
      if (type == shaderc_include_type_standard && &path == &candidates[0]) continue;
      std::error_code ec;
      if (!std::filesystem::is_regular_file(path, ec)) continue;
      result->name = path.string();
      try {  // nothing may be thrown through shaderc: the reason becomes the include's error
        result->text = read_text(path);
      } catch (const ShaderCompileError& e) {
        result->name.clear();
        result->text = e.what();
      }
      break;
    }
    if (result->name.empty() && result->text.empty()) result->text = std::string("cannot find include ") + requested;
    result->source_name = result->name.c_str();
    result->source_name_length = result->name.size();
    result->content = result->text.c_str();
    result->content_length = result->text.size();
    return result;
  }
  void ReleaseInclude(shaderc_include_result* data) override { delete static_cast<Result*>(data); }

 private:
  struct Result : shaderc_include_result {
    std::string name, text;
  };
  std::filesystem::path include_dir_;
};

}  // namespace

std::vector<std::string> variant_defines(const std::string& source, const std::string& variant,
                                         const std::string& file) {
  std::istringstream lines(source);
  std::string line;
  std::vector<std::string> declared;
  while (std::getline(lines, line)) {
    if (line.rfind("//! variant ", 0) != 0) continue;
    std::istringstream words(line.substr(12));
    std::string name, define;
    words >> name;
    declared.push_back(name);
    if (name != variant) continue;
    std::vector<std::string> defines;
    while (words >> define) defines.push_back(define);
    return defines;
  }
  if (declared.empty() && variant.empty()) return {};
  std::string names;
  for (const std::string& n : declared) names += " " + n;
  throw ShaderCompileError(file + ": " +
                           (declared.empty() ? "declares no variants, asked for '" + variant + "'"
                                             : "no variant '" + variant + "' (variants:" + names + ")"));
}

std::vector<uint32_t> compile_glsl_file(const std::filesystem::path& file,
                                        const std::filesystem::path& include_dir,
                                        const std::string& variant) {
  const std::string ext = file.extension().string();
  shaderc_shader_kind kind;
  if (ext == ".vert") kind = shaderc_vertex_shader;
  else if (ext == ".frag") kind = shaderc_fragment_shader;
  else if (ext == ".comp") kind = shaderc_compute_shader;
  else
    throw ShaderCompileError("unknown shader stage for " + file.string() + " (want .vert, .frag or .comp)");

  shaderc::Compiler compiler;
  shaderc::CompileOptions options;
  options.SetTargetEnvironment(shaderc_target_env_vulkan, shaderc_env_version_vulkan_1_3);
  options.SetOptimizationLevel(shaderc_optimization_level_performance);
  options.SetIncluder(std::make_unique<Includer>(include_dir));
  options.SetWarningsAsErrors();
  const std::string source = read_text(file);
  for (const std::string& define : variant_defines(source, variant, file.string())) {
    const size_t eq = define.find('=');
    if (eq == std::string::npos) options.AddMacroDefinition(define);
    else options.AddMacroDefinition(define.substr(0, eq), define.substr(eq + 1));
  }
  shaderc::SpvCompilationResult result =
      compiler.CompileGlslToSpv(source, kind, file.string().c_str(), options);
  if (result.GetCompilationStatus() != shaderc_compilation_status_success) {
    // One line for the command line (the first message and the counts); the whole log beside it,
    // for the window's shader panel.
    std::string log = result.GetErrorMessage();
    while (!log.empty() && log.back() == '\n') log.pop_back();
    const size_t errors = result.GetNumErrors(), warnings = result.GetNumWarnings();
    const std::string first = log.substr(0, log.find('\n'));
    throw ShaderCompileError(
        first + " [" + file.filename().string() + (variant.empty() ? "" : " (" + variant + ")") + ": " +
            std::to_string(errors) + " error(s), " + std::to_string(warnings) +
            " warning(s) (warnings are errors); nothing was run]",
        "shader " + file.string() + " failed to compile:\n" + log);
  }
  return {result.cbegin(), result.cend()};
}

}  // namespace filterlab::vk
