#include "cli.h"

#include "headless/capture.h"

#include <charconv>
#include <unistd.h>

namespace filterlab::app {

std::string usage_text() {
  return R"(usage: filterlab <command> [options]

commands:
  run --headless      render frames with no window, capture images, time every pass
  info                print the Vulkan device facts the filters depend on
  filters             list the filters and methods usable in --chain
  help, --help        this text;  --version  the version

run options:
  --size WxH          output size (default 1280x720)
  --frames N          measured frames after warm-up (default 60)
  --warmup N          frames rendered before measuring (default 10)
  --chain SPEC        filters between scene and tonemap, e.g. "copy,copy" (see README)
  --capture NAME=FILE write image NAME after the last frame; FILE ends in .png or .pfm (repeatable)
  --list-images       list the graph's images and exit
  --timings FILE      write per-pass GPU/CPU timings (median, p5, p95, min, max) as JSON
  --dump-graph FILE   write the compiled graph (passes, images, usages, barriers) as DOT
  --validation        Khronos validation with synchronization validation; exit 4 on any message
  --device SEL        device index or name substring (default: prefer a discrete GPU)
  --camera orbit|fixed  camera motion (default orbit)
  --animate on|off    animated objects (default on)
  --jitter            sub-pixel Halton(2,3) camera jitter
  --exposure X        tonemap exposure (default 1)
  --no-gpu-timing     no timestamps (they serialize passes)
  --shader-dir DIR    SPIR-V folder (default: shaders/ next to the binary)
  --shader-source DIR compile GLSL from DIR at run time instead (shaderc)
  --quiet             no table

exit codes: 0 ok, 1 runtime error, 2 usage error, 3 no usable Vulkan device,
            4 validation messages were reported
)";
}

VkExtent2D parse_size(const std::string& text) {
  const size_t x = text.find('x');
  if (x == std::string::npos) throw UsageError("--size wants WxH, e.g. 1280x720, got '" + text + "'");
  auto number = [&](const std::string& part) {
    uint32_t v = 0;
    auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), v);
    if (part.empty() || ec != std::errc() || end != part.data() + part.size() || v == 0 || v > 16384)
      throw UsageError("--size wants WxH with each side in 1..16384, got '" + text + "'");
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

namespace {

float parse_float(const std::string& flag, const std::string& text) {
  try {
    size_t used = 0;
    float v = std::stof(text, &used);
    if (used != text.size() || !(v > 0.0f) || v > 1e6f) throw std::invalid_argument(text);
    return v;
  } catch (const std::exception&) {
    throw UsageError(flag + " wants a positive number, got '" + text + "'");
  }
}

void check_writable(const std::string& flag, const std::filesystem::path& path) {
  std::filesystem::path dir = path.parent_path().empty() ? "." : path.parent_path();
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec))
    throw UsageError(flag + " " + path.string() + ": folder " + dir.string() + " does not exist");
  if (::access(dir.c_str(), W_OK) != 0)
    throw UsageError(flag + " " + path.string() + ": folder " + dir.string() + " is not writable");
  if (std::filesystem::is_directory(path, ec))
    throw UsageError(flag + " " + path.string() + " is a folder");
}

}  // namespace

CliOptions parse_cli(const std::vector<std::string>& args, const std::filesystem::path& exe_dir) {
  CliOptions out;
  out.run.shader_dir = exe_dir / "shaders";
  if (args.empty()) throw UsageError("no command given (try: filterlab run --headless, or filterlab --help)");
  const std::string& command = args[0];
  if (command == "help" || command == "--help" || command == "-h") return out;
  if (command == "--version") {
    out.command = Command::Version;
    return out;
  }
  if (command == "filters") out.command = Command::ListFilters;
  else if (command == "info") out.command = Command::Info;
  else if (command == "run") out.command = Command::Run;
  else throw UsageError("unknown command '" + command + "' (commands: run, info, filters, help)");

  for (size_t i = 1; i < args.size(); ++i) {
    const std::string& flag = args[i];
    auto value = [&]() -> const std::string& {
      if (i + 1 >= args.size()) throw UsageError(flag + " needs a value");
      return args[++i];
    };
    if (out.command == Command::Info) {
      if (flag == "--device") out.info_device = value();
      else if (flag == "--validation") out.info_validation = true;
      else if (flag == "--json") {
        out.info_json = value();
        check_writable(flag, *out.info_json);
      } else throw UsageError("unknown option '" + flag + "' for info (options: --device, --validation, --json)");
      continue;
    }
    if (out.command == Command::ListFilters) throw UsageError("filters takes no options, got '" + flag + "'");

    headless::RunOptions& run = out.run;
    if (flag == "--headless") out.headless = true;
    else if (flag == "--size") run.size = parse_size(value());
    else if (flag == "--frames") run.frames = parse_count(flag, value(), 1, 1000000);
    else if (flag == "--warmup") run.warmup = parse_count(flag, value(), 0, 1000000);
    else if (flag == "--chain") run.chain = value();
    else if (flag == "--validation") run.validation = true;
    else if (flag == "--device") run.device = value();
    else if (flag == "--list-images") run.list_images = true;
    else if (flag == "--no-gpu-timing") run.gpu_timing = false;
    else if (flag == "--quiet") run.print_table = false;
    else if (flag == "--jitter") run.scene.jitter = true;
    else if (flag == "--exposure") run.exposure = parse_float(flag, value());
    else if (flag == "--shader-dir") run.shader_dir = value();
    else if (flag == "--shader-source") run.glsl_dir = value();
    else if (flag == "--camera") {
      const std::string& v = value();
      if (v != "orbit" && v != "fixed") throw UsageError("--camera wants orbit or fixed, got '" + v + "'");
      run.scene.orbit_camera = v == "orbit";
    } else if (flag == "--animate") {
      const std::string& v = value();
      if (v != "on" && v != "off") throw UsageError("--animate wants on or off, got '" + v + "'");
      run.scene.animate_objects = v == "on";
    } else if (flag == "--capture") {
      const std::string& v = value();
      const size_t eq = v.find('=');
      if (eq == std::string::npos || eq == 0 || eq + 1 == v.size())
        throw UsageError("--capture wants NAME=FILE, e.g. final=out/final.png, got '" + v + "'");
      headless::Capture c{v.substr(0, eq), v.substr(eq + 1)};
      if (!headless::capture_extension_supported(c.path))
        throw UsageError("--capture " + c.path.string() + ": the file must end in .png or .pfm");
      check_writable(flag, c.path);
      run.captures.push_back(c);
    } else if (flag == "--timings") {
      run.timings_json = value();
      check_writable(flag, *run.timings_json);
    } else if (flag == "--dump-graph") {
      run.dump_graph = value();
      check_writable(flag, *run.dump_graph);
    } else {
      throw UsageError("unknown option '" + flag + "' (see filterlab --help)");
    }
  }
  if (out.command == Command::Run && !out.headless)
    throw UsageError("the interactive window is not built yet: use filterlab run --headless");
  return out;
}

}  // namespace filterlab::app
