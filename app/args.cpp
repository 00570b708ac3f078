#include "args.h"

#include "command.h"

#include "filters/registry.h"
#include "io/image_files.h"
#include "io/input_file.h"
#include "runtime/capture.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace filterlab::app {

Args::Args(std::string command, std::vector<std::string> args, std::filesystem::path exe_dir)
    : command_(std::move(command)), exe_dir_(std::move(exe_dir)) {
  args_.push_back(command_);
  args_.insert(args_.end(), args.begin(), args.end());
}

const std::string& Args::value() {
  if (i_ + 1 >= args_.size()) throw UsageError(flag() + " needs a value");
  return args_[++i_];
}

std::filesystem::path Args::output_file() {
  const std::string option = flag();
  const std::filesystem::path path = value();
  check_writable(option, path);
  return path;
}

void Args::unknown() const {
  throw UsageError(unknown_argument_text(command_, flag()));
}

DeviceOptions default_device_options(const Args& args) {
  DeviceOptions gpu;
  gpu.shader_dir = args.exe_dir() / "shaders";
  return gpu;
}

bool parse_device_flag(Args& args, DeviceOptions& gpu) {
  const std::string& flag = args.flag();
  if (flag == "--device") gpu.device = args.value();
  else if (flag == "--validation") gpu.validation = true;
  else if (flag == "--shader-dir") gpu.shader_dir = args.value();
  else if (flag == "--shader-source") gpu.glsl_dir = args.value();
  else return false;
  return true;
}

// "W:PIXELS:D" and "START:STOP:COUNT": three numbers, finite.
namespace {

std::array<double, 3> three_numbers(const std::string& flag, const std::string& text, const char* form) {
  std::array<double, 3> out{};
  size_t from = 0;
  for (size_t i = 0; i < 3; ++i) {
    const size_t colon = i < 2 ? text.find(':', from) : text.size();
    const std::optional<double> v =
        colon == std::string::npos ? std::nullopt : strict_number(text.substr(from, colon - from));
    if (!v || (i == 2 && colon != text.size()))
      throw UsageError(flag + " wants " + form + ", got '" + text + "'");
    out[i] = *v;
    from = colon + 1;
  }
  return out;
}

}  // namespace

bool parse_flip_flag(Args& args, common::FlipViewing& viewing) {
  const std::string& flag = args.flag();
  if (flag == "--ppd") {
    const std::string text = args.value();
    const std::optional<double> ppd = strict_number(text);
    if (!ppd || !(*ppd > 0) || *ppd > common::kMaxPixelsPerDegree)
      throw UsageError(flag + " wants pixels per degree above 0 and at most 1000, got '" + text + "'");
    viewing.ppd = *ppd;
  } else if (flag == "--monitor") {
    const auto [width, pixels, distance] = three_numbers(flag, args.value(), "WIDTH_M:PIXELS:DISTANCE_M");
    if (!(width > 0 && pixels >= 1 && pixels <= 65536 && distance > 0 && width <= 100 && distance <= 1000))
      throw UsageError(flag +
                       ": a width and distance above 0 (metres, to 100 and 1000) and 1 to 65536 pixels");
    viewing.ppd = common::pixels_per_degree(width, pixels, distance);
    if (!(viewing.ppd > 0 && viewing.ppd <= common::kMaxPixelsPerDegree))
      throw UsageError(flag + ": that monitor has " + std::to_string(viewing.ppd) +
                       " pixels per degree; FLIP takes at most 1000");
  } else if (flag == "--flip-exposure") {
    const auto [start, stop, count] = three_numbers(flag, args.value(), "START:STOP:COUNT");
    if (std::abs(start) > 64 || std::abs(stop) > 64 || stop < start || count < 1 || count > 64 ||
        count != std::floor(count))
      throw UsageError(flag + ": START <= STOP within +-64 stops and a COUNT of 1 to 64");
    viewing.exposures = common::FlipExposures{start, stop, uint32_t(count)};
  } else {
    return false;
  }
  return true;
}

vk::Context make_context(const DeviceOptions& gpu) {
  vk::ContextOptions options;
  options.device_selector = gpu.device;
  options.validation = gpu.validation;
  options.compute_derivatives = true;  // comp.quad_derivative needs them enabled at device creation
  return vk::Context(options);
}

int validation_exit_code(uint32_t messages) {
  if (messages == 0) return 0;
  std::fprintf(stderr, "filterlab: %u validation message(s) reported\n", messages);
  return 4;
}

int validation_exit_code(const vk::Context& ctx) {
  return validation_exit_code(ctx.validation_messages());
}

VkExtent2D parse_size(const std::string& text, const std::string& flag) {
  const size_t x = text.find('x');
  if (x == std::string::npos) throw UsageError(flag + " wants WxH, e.g. 1280x720, got '" + text + "'");
  auto number = [&](const std::string& part) {
    uint32_t v = 0;
    auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), v);
    if (part.empty() || ec != std::errc() || end != part.data() + part.size() || v == 0 || v > 16384)
      throw UsageError(flag + " wants WxH with each side in 1..16384, got '" + text + "'");
    return v;
  };
  return {number(text.substr(0, x)), number(text.substr(x + 1))};
}

uint32_t parse_count(const std::string& flag, const std::string& text, uint32_t min, uint32_t max) {
  uint32_t v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || v < min || v > max)
    throw UsageError(flag + " wants a whole number in " + std::to_string(min) + ".." + std::to_string(max) +
                     ", got '" + text + "'");
  return v;
}

std::optional<double> strict_number(const std::string& text) {
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v))
    return std::nullopt;
  return v;
}

float parse_positive(const std::string& flag, const std::string& text) {
  const std::optional<double> v = strict_number(text);
  if (!v || !(*v > 0.0) || *v > 1e6) throw UsageError(flag + " wants a positive number, got '" + text + "'");
  return float(*v);
}

bool parse_on_off(const std::string& flag, const std::string& text) {
  if (text != "on" && text != "off") throw UsageError(flag + " wants on or off, got '" + text + "'");
  return text == "on";
}

std::vector<std::string> split_list(const std::string& flag, const std::string& text) {
  std::vector<std::string> items;
  size_t start = 0;
  while (true) {
    const size_t comma = text.find(',', start);
    items.push_back(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (items.back().empty()) throw UsageError(flag + " wants a comma-separated list, got '" + text + "'");
    if (comma == std::string::npos) return items;
    start = comma + 1;
  }
}

void check_writable(const std::string& flag, const std::filesystem::path& path) {
  // An empty path was taken for "." and failed at the write, after the work (exit 1).
  if (path.empty()) throw UsageError(flag + " wants a file, got ''");
  std::filesystem::path dir = path.parent_path().empty() ? "." : path.parent_path();
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec))
    throw UsageError(flag + " " + path.string() + ": folder " + dir.string() + " does not exist");
  if (std::filesystem::is_directory(path, ec)) throw UsageError(flag + " " + path.string() + " is a folder");
  try {
    io::check_can_write(path);
  } catch (const io::IoError& e) {
    throw UsageError(flag + ": " + e.what());
  }
}

// The folder must be a folder where it exists, and the deepest part of it that exists must take a
// new file, checked by creating one there. Nothing is created that stays.
void check_folder_can_take_files(const std::string& flag, const std::filesystem::path& folder) {
  std::error_code ec;
  std::filesystem::path existing = folder.empty() ? "." : folder;
  while (!std::filesystem::exists(existing, ec) && existing.has_parent_path() &&
         existing != existing.parent_path())
    existing = existing.parent_path();
  if (!std::filesystem::exists(existing, ec)) existing = ".";
  if (!std::filesystem::is_directory(existing, ec))
    throw UsageError(flag + " " + folder.string() + ": " + existing.string() + " is not a folder");
  try {
    io::check_can_write(existing / "filterlab-probe");
  } catch (const io::IoError& e) {
    throw UsageError(flag + " " + folder.string() + ": " + e.what());
  }
}

void check_image_extension(const std::string& flag, const std::filesystem::path& path) {
  if (!io::is_image_extension(path))
    throw UsageError((flag.empty() ? "" : flag + " ") + path.string() +
                     ": unsupported file type (use .png, .jpg, .jpeg, .pfm or .exr)");
}

runtime::Capture parse_capture(const std::string& flag, const std::string& value,
                               const std::string& example) {
  const size_t eq = value.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == value.size())
    throw UsageError(flag + " wants NAME=FILE, e.g. " + example + "=out/" + example + ".png, got '" + value +
                     "'");
  runtime::Capture c{value.substr(0, eq), value.substr(eq + 1)};
  if (!runtime::capture_extension_supported(c.path))
    throw UsageError(flag + " " + c.path.string() + ": the file must end in .png, .pfm or .exr");
  check_writable(flag, c.path);
  return c;
}

std::optional<std::filesystem::path> parse_scene(const std::string& value) {
  if (value == "builtin") return std::nullopt;
  if (value.empty()) throw UsageError("--scene wants builtin or a .gltf or .glb file, got ''");
  io::check_input_file(value, 1ull << 30);
  return std::filesystem::path(value);
}

std::optional<std::string> param_shorthand(const std::string& flag) {
  if (flag.rfind("--", 0) != 0) return std::nullopt;
  std::string name = flag.substr(2);
  std::replace(name.begin(), name.end(), '-', '_');
  for (const filters::Family* family : filters::registry().families())
    if (family->param(name)) return name;
  return std::nullopt;
}

filters::RawParam parse_key_value(const std::string& flag, const std::string& text) {
  const size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
    throw UsageError(flag + " wants key=value, got '" + text + "'");
  return {text.substr(0, eq), text.substr(eq + 1)};
}

void check_step(const filters::FilterStep& step) {
  try {
    filters::resolve(step);
  } catch (const filters::ChainError& e) {
    throw UsageError(e.what());
  }
}

filters::ResolvedStep default_step(const filters::Family& family, const filters::Method& method,
                                   const char* precision) {
  filters::FilterStep step{family.name, method.name, {}, family.name + "." + method.name};
  if (family.param("precision")) step.set("precision", precision);
  return filters::resolve(step);
}

void write_text(const std::filesystem::path& path, const std::string& text) {
  io::write_file_atomically(path, text);
}

}  // namespace filterlab::app
