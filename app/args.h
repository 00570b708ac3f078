#pragma once
// What every command's options share: the walk over the arguments, the value parsers, the checks of
// files to read and write, the device options and the family parameters' --KEY VALUE shorthand. A
// problem throws UsageError, which main() turns into one line and exit code 2.
#include "common/flip.h"
#include "filters/chain.h"
#include "runtime/run_options.h"
#include "vk/context.h"

#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace filterlab::app {

class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The arguments after a command's name, walked flag by flag: value() takes the next argument or
// fails naming the flag; unknown() refuses the current one with the command's nearest option.
class Args {
 public:
  Args(std::string command, std::vector<std::string> args, std::filesystem::path exe_dir);
  bool next() { return ++i_ < args_.size(); }
  const std::string& flag() const { return args_[i_]; }
  const std::string& value();
  // The value of an option that names a file to write at the end, checked now (check_writable).
  std::filesystem::path output_file();
  [[noreturn]] void unknown() const;
  const std::string& command() const { return command_; }
  const std::filesystem::path& exe_dir() const { return exe_dir_; }

 private:
  std::string command_;
  std::vector<std::string> args_;  // args_[0] is the command's name
  std::filesystem::path exe_dir_;  // where the SPIR-V is by default: shaders/ next to the binary
  size_t i_ = 0;
};

// Where SPIR-V comes from and which device runs: --device, --validation, --shader-dir,
// --shader-source.
struct DeviceOptions {
  std::string device;
  bool validation = false;
  std::filesystem::path shader_dir;
  std::optional<std::filesystem::path> glsl_dir;
};
DeviceOptions default_device_options(const Args& args);
bool parse_device_flag(Args& args, DeviceOptions& gpu);  // true when the flag was one of them
// --ppd P, --monitor W:PIXELS:D and --flip-exposure START:STOP:COUNT (compare, run): true when the
// flag was one of them.
bool parse_flip_flag(Args& args, common::FlipViewing& viewing);

// The device (compute-shader derivatives enabled where it has them, for the quad methods).
vk::Context make_context(const DeviceOptions& gpu);
// 4 after validation messages (said on stderr), else 0: every command's last word.
int validation_exit_code(uint32_t messages);
int validation_exit_code(const vk::Context& ctx);

VkExtent2D parse_size(const std::string& text, const std::string& flag = "--size");  // flag: errors name it
uint32_t parse_count(const std::string& flag, const std::string& text, uint32_t min, uint32_t max);
// A decimal number and nothing else: no blanks, no hex ("0x10"), no "inf" or "nan", which strtod
// and stof accept.
std::optional<double> strict_number(const std::string& text);
float parse_positive(const std::string& flag, const std::string& text);  // in (0, 1e6]
bool parse_on_off(const std::string& flag, const std::string& text);
std::vector<std::string> split_list(const std::string& flag, const std::string& text);

// A file a command writes at the end: its folder exists and a new file can be created there (checked
// by creating one: root passes access()).
void check_writable(const std::string& flag, const std::filesystem::path& path);
// A folder a later write creates if needed (screenshots, captures, the tune table's folder).
void check_folder_can_take_files(const std::string& flag, const std::filesystem::path& folder);
// An image to read, by its extension (.png, .jpg, .jpeg, .pfm, .exr).
void check_image_extension(const std::string& flag, const std::filesystem::path& path);
// `--capture NAME=FILE`: a graph image by name, to a .png, .pfm or .exr file that can be created.
runtime::Capture parse_capture(const std::string& flag, const std::string& value, const std::string& example);
// --scene builtin|FILE: none for the built-in scene; a file is checked now (missing, a folder, a
// FIFO: exit 2) and read before any device.
std::optional<std::filesystem::path> parse_scene(const std::string& value);

// `--src-roi V` for `--param src_roi=V`: any parameter of a registered family, by its name with
// dashes for underscores. The step's schema then refuses one its family or method does not take.
std::optional<std::string> param_shorthand(const std::string& flag);
filters::RawParam parse_key_value(const std::string& flag, const std::string& text);  // --param KEY=VALUE
// The step's schema: unknown, duplicate, out-of-range and non-finite parameters are usage errors.
void check_step(const filters::FilterStep& step);
// A method's step at its family's defaults, in `precision` where the family has one.
filters::ResolvedStep default_step(const filters::Family& family, const filters::Method& method,
                                   const char* precision);

void write_text(const std::filesystem::path& path, const std::string& text);  // whole or not at all

}  // namespace filterlab::app
