#include "cli.h"

#include "common/roi.h"
#include "common/suggest.h"
#include "filters/auto_method.h"
#include "filters/chain.h"
#include "io/image_files.h"
#include "io/input_file.h"
#include "runtime/capture.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <regex>
#include <set>

namespace filterlab::app {

namespace {
// The filter command's own options: a family parameter of the same name is reached with --param.
const std::string kFilterOwnOptions[] = {"--input", "--output", "--filter",  "--method",
                                         "--param", "--raw",    "--capture", "--png-format"};
}  // namespace

std::string families_text(bool method_lines) {
  std::string out = "filters (--chain steps, --filter):\n";
  for (const filters::Family* f : filters::registry().families()) {
    out += "  " + f->name + ": " + f->description + "\n    methods: " + f->method_names() +
           (f->default_method.empty() ? "" : " (default " + f->default_method + ")") + "\n";
    if (method_lines)
      for (const filters::Method& m : f->methods)
        out += "      " + m.name + (m.name == f->default_method ? " (default)" : "") +
               (m.exact ? "" : " (not exact)") + ": " + m.description + "\n";
    if (f->tools.evaluation)
      out += "    evaluate --filter " + f->name + ": " + f->tools.evaluation->title +
             " configurations on scene sequences against supersampled references\n";
    if (f->tools.evaluation_baseline)
      out += "    a row of evaluate --filter " + f->tools.evaluation_baseline->evaluated + ": \"" +
             f->tools.evaluation_baseline->label + "\", its defaults\n";
    for (const filters::Param& p : f->params) {
      std::string fallback = p.derived ? p.derived_text : p.fallback.empty() ? "none" : p.fallback;
      std::string line = "    " + p.name + "=" + p.range_text() + (p.unit.empty() ? "" : " " + p.unit) +
                         "  (default " + fallback + ") " + p.help;
      // --KEY VALUE is short for --param KEY=VALUE, except where --KEY is filter's own option.
      if (std::find(std::begin(kFilterOwnOptions), std::end(kFilterOwnOptions), "--" + p.name) !=
          std::end(kFilterOwnOptions))
        line += "; on filter's command line --param " + p.name + "=VALUE (--" + p.name + " is filter's own)";
      if (!p.methods.empty()) {
        line += "; for";
        for (const std::string& m : p.methods) line += " " + m;
      }
      out += line + "\n";
    }
  }
  return out;
}

namespace {

const std::vector<std::string> kCommands = {"run",   "info",    "filters",  "methods", "filter",
                                            "bench", "quality", "evaluate", "compare", "report"};

std::vector<std::string> help_lines() {
  std::vector<std::string> lines;
  std::string body = usage_body();
  for (size_t start = 0; start < body.size();) {
    const size_t end = body.find('\n', start);
    lines.push_back(body.substr(start, end == std::string::npos ? std::string::npos : end - start));
    start = end == std::string::npos ? body.size() : end + 1;
  }
  return lines;
}

// The help's own text for `command`: its lines of the command list (with their continuations) and
// its options section.
std::string command_help_lines(const std::string& command) {
  const std::vector<std::string> lines = help_lines();
  std::string out;
  bool in_commands = false, in_entry = false, in_options = false;
  for (const std::string& line : lines) {
    if (line == "commands:") {
      in_commands = true;
      continue;
    }
    if (in_commands && line.empty()) in_commands = in_entry = false;
    if (in_commands) {
      const bool continuation = line.rfind("                      ", 0) == 0;
      if (!continuation) in_entry = line.rfind("  " + command + " ", 0) == 0;
      if (in_entry) out += line + "\n";
    }
    if (line.rfind(command + " options", 0) == 0) {
      in_options = true;
      out += "\n";
    }
    if (in_options && line.empty()) in_options = false;
    if (in_options) out += line + "\n";
  }
  return out;
}

// The options a command takes: those its help names, the device options, and for the commands that
// take a family's parameters as --KEY VALUE, every family's parameters.
std::vector<std::string> options_of(const std::string& command) {
  std::vector<std::string> out = {"--device", "--validation", "--shader-dir", "--shader-source", "--help"};
  const std::string text = command_help_lines(command);
  static const std::regex option("--[a-z][a-z0-9-]*");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), option); it != std::sregex_iterator(); ++it)
    out.push_back(it->str());
  if (command == "filter" || command == "bench")
    for (const filters::Family* f : filters::registry().families())
      for (const filters::Param& p : f->params) {
        std::string name = "--" + p.name;
        std::replace(name.begin(), name.end(), '_', '-');
        out.push_back(name);
      }
  return out;
}

[[noreturn]] void unknown_option(const std::string& command, const std::string& flag) {
  if (flag.empty() || flag[0] != '-')
    throw UsageError("unexpected argument '" + flag + "' for " + command +
                     (command == "filter" ? ": the files are given as --input FILE --output FILE" : "") +
                     " (see filterlab " + command + " --help)");
  throw UsageError("unknown option '" + flag + "' for " + command + did_you_mean(flag, options_of(command)) +
                   " (see filterlab " + command + " --help)");
}

}  // namespace

std::string command_help(const std::string& command) {
  std::string out = "usage: filterlab " + command + " [options]\n\n" + command_help_lines(command);
  if (command == "methods" || command == "filter" || command == "bench" || command == "quality" ||
      command == "evaluate")
    out += "\n--device, --validation, --shader-dir, --shader-source: the device and the shaders\n";
  if (command == "run" || command == "filter" || command == "bench" || command == "quality")
    out += "\nfilters, their methods and parameters: filterlab filters\n";
  return out;
}

std::string usage_text() {
  return usage_body() + "\n" + families_text(false);
}

std::string usage_body() {
  return R"(usage: filterlab <command> [options]

commands:
  run                 show the scene and chain in a window (resizable; closes with the window)
  run --headless      render frames with no window, capture images, time every pass
  info [--json FILE]  print the Vulkan device facts the filters depend on
  filters             list the filters and methods usable in --chain
  methods [--json]    every filter method: stage, exactness, availability on this device, limits, cost,
                      its family's default marked, and what it does
  filter              filter one image file (PNG, JPEG or PFM) with one method, no window
  bench               time methods x radii x sizes x precisions beside a copy pass; JSON and CSV
  quality             MSE and SSIM of every method against its family's baseline on the scene, by
                      radius (the paper's tables)
  evaluate            a filter's configurations on three scene sequences (still, orbit, moving
                      objects) against supersampled references: PSNR, SSIM, flicker, ghosting
  report B.json ...   one self-contained HTML file (inline SVG) from bench JSON files: --out FILE.html;
                      captures are inlined from each JSON's folder only (--captures-from DIR adds one)
  compare A B         MSE, PSNR, SSIM and max |A-B| of two images (.png/.jpg as stored/255, or .pfm/.exr;
                      a .png/.jpg against a .pfm/.exr is decoded from sRGB to linear first, and says so);
                      exit 1 when either holds NaN or infinity (counted, left out of the metrics)
  help, --help        this text;  --version  the version

run options:
  --size WxH          output size (default 1280x720; with --image, the image's; a window on a CPU
                      device: 640x360)
  --image FILE        a still image (.png, .jpg, .pfm, .exr) in place of the scene, scaled to fit
                      --size; chain steps that read depth or motion are refused
  --scene builtin|FILE  the built-in scene (default) or a glTF 2.0 scene (.gltf, .glb): meshes, the
                      node hierarchy, node animations, PBR materials and textures, alpha modes,
                      KHR_lights_punctual, cameras (skins and morph targets in the rest pose)
  --scene-camera NAME|INDEX|orbit  one of the glTF file's cameras, or an orbit around its bounds
                      (default: the file's first camera, the orbit where it has none)
  --frames N          measured frames after warm-up (default 60)
  --warmup N          frames rendered before measuring (default 10)
  --chain SPEC        filters between scene and tonemap, e.g. "copy,copy" (see README)
  --capture NAME=FILE write image NAME after the last frame; FILE ends in .png, .pfm or .exr (repeatable)
  --list-images       list the graph's images and exit
  --timings FILE      write per-pass GPU/CPU timings (median, p5, p95, min, max) as JSON
  --save-chain FILE   write the view as a preset (JSON: the chains with every parameter, the compare
                      view, the content, the tonemap and exposure, the scene's switches) when the run
                      ends; with the window, as it is when it closes
  --load-chain FILE   start from a preset (or a screenshot's sidecar JSON); it sets what --chain,
                      --compare*, --image, --scene, --tonemap, --exposure and the scene flags would
  --dump-graph FILE   write the compiled graph (passes, images, usages, barriers) as DOT
  --validation        Khronos validation with synchronization validation; exit 4 on any message
  --device SEL        device index or name substring (default: prefer a discrete GPU)
  --camera orbit|fixed  camera motion (default orbit)
  --animate on|off    animated objects (default on)
  --jitter            sub-pixel Halton(2,3) camera jitter
  --jitter-length N   points of the jitter sequence before it repeats: 8 (default) or 16
  --camera-cut-at F   the camera jumps to another view at frame F (repeatable): temporal filters
                      drop their history there
  --tonemap CURVE     aces (Narkowicz's ACES fit: the default for scenes, EXR and PFM), reinhard (on
                      luminance), hable (filmic), agx, neutral (Khronos PBR Neutral) or none (the
                      linear value clamped: the default for --image of a PNG or JPEG, shown as stored)
  --exposure X|auto   a multiplier before the curve (default 1); auto: 0.18 over the frame's geometric
                      mean luminance, measured each frame (--exposure or --ev then compensates)
  --ev E              exposure in stops: 2^E (--ev 1 is --exposure 2)
  --no-gpu-timing     no timestamps (they serialize passes)
  --shader-dir DIR    SPIR-V folder (default: shaders/ next to the binary)
  --shader-source DIR compile GLSL from DIR at run time instead (shaderc)
  --quiet             no table
window options (run without --headless):
  --frames N          present N frames, then exit (default: until the window is closed)
  --screenshot FILE   write the last presented image (.png, .pfm or .exr), read back from the swapchain
  --present-mode M    fifo (default, vsync), mailbox or immediate; unsupported: fifo, with a note
  --compare CHAIN     start with the A/B compare on: chain B beside --chain (A), live MSE/PSNR/max
  --compare-mode M    split (default: A left of the divider), side (the middle halves of A and B
                      side by side) or diff (|A-B| as a heat map)
  --divider X         split: the first column of B (default: the middle)
  --gain G            diff: |A-B| times G is white at 1 (default: 1 / the frame's largest |A-B|)
  --viewport IMAGE    the graph image the viewport shows (default final; any --list-images name)
  --pause             start with the animation paused (Space pauses, N steps, Tab hides the panel)
  --no-ui             hide the control panel
  --screenshot-dir D  where F12 / the screenshot button save PNG + PFM + JSON (default screenshots)
  --no-hot-reload     do not watch shaders/ for edits

filter options:
  --input FILE        .png or .jpg/.jpeg (sRGB, 8 or 16 bits: decoded to linear unless --raw), .pfm
                      or .exr (linear)
  --output FILE       .png (sRGB, or stored values with --raw), .pfm (linear float, exact) or .exr
                      (the precision's half or float samples)
  --png-format L      PNG outputs' channels and bits: gray8, gray16, graya8, graya16, rgb8, rgb16,
                      rgba8 or rgba16 (default: the input's; a PFM or EXR input's channels at 8 bits)
  --filter F          a family (default: the first listed below)     --method M  one of its methods
  --param KEY=VALUE   any of the family's parameters (repeatable); --KEY VALUE is short for it,
                      with dashes for underscores (--radius 4, --src-roi 16x16+0+0); --precision
                      defaults to fp32 for samples halves cannot hold (16-bit PNG, float EXR, PFM),
                      else to the family's default; a derived value (sigma) is printed
  --capture NAME=FILE another image the step makes (its graph's name for it), written like --output
                      (repeatable): both images of a step that writes two, in one run; an unknown NAME
                      lists the step's images
  --raw

bench options:
  --filter F          the family to time (default: the first listed below); the memory-floor
                      family is always measured: its fastest method is what every ratio divides by
  --methods A,B       methods to time (default: every method; unavailable ones are listed as skipped)
  --scene FILE  --scene-camera NAME|INDEX   a glTF scene for the families measured on the scene
  --sweep KEY=V1,V2   time every value of a parameter (repeatable: the product of the sweeps)
  --radii 1,2,...     the same as --sweep radius=... (default 1,2,3,4,8,16,32 where there is a radius)
  --param KEY=VALUE   a parameter fixed for every case (repeatable); --KEY VALUE is short for it
  --sizes WxH,...     (default 3840x2160)   --precision fp16,fp32 (default fp16)
  --frames N (100)    --warmup N (20)
  --warmup-ms T       and at least T ms of warm-up per case, so GPU clocks ramp up (default 500)
  --inputs K          resident input images rotated every frame (default 3)
  --repeat N          time each case N times, each with its own allocations (default 1); a case whose
                      medians spread more than 10% is listed as unstable (and "unstable" in the JSON);
                      a case with a run of 20+ frames, more than 10% of them over 10% from their
                      median, is listed as unsteady: its median is of no one level
  --no-error          skip the error against the CPU reference
  --tune              time every exact method (times only; fp16 and fp32 unless --precision) and write
                      the table the family's `auto` method picks from on this device:
                      $FILTERLAB_TUNE, else $XDG_CONFIG_HOME/filterlab/tune/<device>_<driver>.json
  --tune-file FILE    write that table here instead (auto reads it in a run with FILTERLAB_TUNE=FILE)
  --captures DIR      per case, the output's top-left 128x128 and a heat map of its error (for report)
  --json FILE  --csv FILE  --quiet

quality options:
  --size WxH (default 1280x720)  --radii 1,2,3  --markdown FILE  --json FILE
  --image FILE        a photograph (.png, .jpg, .pfm, .exr; values as stored) in place of the scene
  --scene builtin|FILE  a glTF scene in place of the built-in one (tonemapped, as the built-in)
  --scene-camera NAME|INDEX  one of its cameras

evaluate options (the filters that offer an evaluation: see `filterlab filters`):
  --filter NAME (default: the first that offers one)  --scene builtin|FILE (a glTF scene)
  --scene-camera NAME|INDEX
  --size WxH (default 320x180)  --frames N (default 32)  --grid G (reference offsets G x G, default 8)
  --json FILE

compare options:
  over the channels both images have: RGB, or RGBA when both have alpha (PFM: RGB or gray)
  --alpha on|off      whether alpha counts when both images have it (default on)
  --json FILE         {"mse", "psnr" (null when identical), "ssim", "max_abs", "nonfinite", ...}
  --diff FILE.png     heat map of |A-B| (black, red, yellow, white)   --gain G  (default: max -> white)

methods, filter, bench, quality and evaluate also take --device, --validation, --shader-dir, --shader-source.

exit codes: 0 ok, 1 runtime error, 2 usage error, 3 no usable Vulkan device,
            4 validation messages were reported
)";
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

namespace {

// A decimal number and nothing else: no blanks, no hex ("0x10"), no "inf" or "nan", which strtod
// and stof accept.
std::optional<double> strict_number(const std::string& text) {
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v))
    return std::nullopt;
  return v;
}

float parse_float(const std::string& flag, const std::string& text) {
  const std::optional<double> v = strict_number(text);
  if (!v || !(*v > 0.0) || *v > 1e6) throw UsageError(flag + " wants a positive number, got '" + text + "'");
  return float(*v);
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

// `--capture NAME=FILE`: an image of the graph by name, written to a .png, .pfm or .exr file that can
// be created.
runtime::Capture parse_capture(const std::string& flag, const std::string& v, const std::string& example) {
  const size_t eq = v.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == v.size())
    throw UsageError(flag + " wants NAME=FILE, e.g. " + example + "=out/" + example + ".png, got '" + v +
                     "'");
  runtime::Capture c{v.substr(0, eq), v.substr(eq + 1)};
  if (!runtime::capture_extension_supported(c.path))
    throw UsageError(flag + " " + c.path.string() + ": the file must end in .png, .pfm or .exr");
  check_writable(flag, c.path);
  return c;
}

// A folder that a later write creates if needed (screenshots, the tune table's folder): it must be a
// folder where it exists, and the deepest part of it that exists must take a new file, checked by
// creating one there. Nothing is created that stays.
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

}  // namespace

namespace {

// Walks the flags after the command; value() takes the next argument or fails naming the flag.
class Flags {
 public:
  explicit Flags(const std::vector<std::string>& args) : args_(args) {}
  bool next() { return ++i_ < args_.size(); }
  const std::string& flag() const { return args_[i_]; }
  const std::string& value() {
    if (i_ + 1 >= args_.size()) throw UsageError(flag() + " needs a value");
    return args_[++i_];
  }

 private:
  const std::vector<std::string>& args_;
  size_t i_ = 0;
};

// --device, --validation, --shader-dir, --shader-source: true when `flag` was one of them.
bool parse_device_flag(Flags& flags, DeviceOptions& gpu) {
  const std::string& flag = flags.flag();
  if (flag == "--device") gpu.device = flags.value();
  else if (flag == "--validation") gpu.validation = true;
  else if (flag == "--shader-dir") gpu.shader_dir = flags.value();
  else if (flag == "--shader-source") gpu.glsl_dir = flags.value();
  else return false;
  return true;
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

// $FILTERLAB_WINDOW_SCRIPT, for scripts that drive the window as a user would (README, "Driving it
// deterministically"): steps separated by commas, each ACTION@FRAME: screenshot@F presses the
// screenshot key, resize@F:WxH resizes the window during frame F, minimize@F iconifies it and
// restores it a moment later, close@F asks it to close. Not an option: nothing a user needs.
void parse_window_script(WindowOptions& window) {
  const char* script = std::getenv("FILTERLAB_WINDOW_SCRIPT");
  if (!script || !*script) return;
  std::string text = script;
  const std::string name = "$FILTERLAB_WINDOW_SCRIPT";
  for (size_t start = 0; start <= text.size();) {
    const size_t end = std::min(text.find(',', start), text.size());
    const std::string step = text.substr(start, end - start);
    start = end + 1;
    const size_t at = step.find('@');
    if (at == std::string::npos)
      throw UsageError(name + ": '" + step + "' is not ACTION@FRAME (screenshot, resize, minimize, close)");
    const std::string action = step.substr(0, at), rest = step.substr(at + 1);
    if (action == "resize") {
      const size_t colon = rest.find(':');
      if (colon == std::string::npos || colon == 0)
        throw UsageError(name + ": resize wants resize@FRAME:WxH, e.g. resize@40:640x360, got '" + step +
                         "'");
      window.test_resizes.push_back(
          {parse_count(name, rest.substr(0, colon), 0, 1000000), parse_size(rest.substr(colon + 1), name + " resize")});
      continue;
    }
    const uint32_t frame = parse_count(name + " " + action, rest, 0, 1000000);
    if (action == "screenshot") window.test_screenshot_at.push_back(frame);
    else if (action == "minimize") window.test_minimize_at = frame;
    else if (action == "close") window.test_close_at = frame;
    else throw UsageError(name + ": unknown action '" + action + "' (screenshot, resize, minimize, close)");
  }
}

// --scene builtin|FILE: none for the built-in scene; a file is checked now (missing, a folder, a
// FIFO: exit 2) and read before any device.
std::optional<std::filesystem::path> scene_flag(const std::string& value) {
  if (value == "builtin") return std::nullopt;
  if (value.empty()) throw UsageError("--scene wants builtin or a .gltf or .glb file, got ''");
  io::check_input_file(value, 1ull << 30);
  return std::filesystem::path(value);
}

void parse_run(Flags& flags, CliOptions& out) {
  runtime::RunOptions& run = out.run;
  std::string window_only;  // the last flag that means nothing without a window
  bool size_given = false;
  std::string exposure_flag;  // --exposure X or --ev E: one of them, once
  bool tonemap_given = false;
  std::optional<std::filesystem::path> load_chain;
  std::string view_flag;  // the last flag a preset sets too (--load-chain takes none of them)
  auto set_exposure = [&](const std::string& flag, float value) {
    if (!exposure_flag.empty())
      throw UsageError(flag + ": the exposure is already set by " + exposure_flag + " (--exposure auto " +
                       "takes one of them as its compensation)");
    exposure_flag = flag;
    run.display.exposure = value;
  };
  while (flags.next()) {
    const std::string& flag = flags.flag();
    static const std::set<std::string> kPresetFlags = {
        "--chain",         "--compare",      "--image",   "--scene",  "--scene-camera", "--viewport",
        "--tonemap",       "--exposure",     "--ev",      "--camera", "--animate",      "--jitter",
        "--jitter-length", "--compare-mode", "--divider", "--gain"};
    if (kPresetFlags.count(flag)) view_flag = flag;
    if (flag == "--headless") out.headless = true;
    else if (flag == "--size") {
      run.size = parse_size(flags.value());
      size_given = true;
    } else if (flag == "--scene") {
      run.scene_file = scene_flag(flags.value());
    } else if (flag == "--scene-camera") {
      run.scene_camera = flags.value();
    } else if (flag == "--image") {
      run.image = flags.value();
      if (!io::is_image_extension(*run.image))
        throw UsageError("--image " + run.image->string() +
                         ": unsupported file type (use .png, .jpg, .jpeg, .pfm or .exr)");
    } else if (flag == "--frames")
      out.window.frames = run.frames = parse_count(flag, flags.value(), 1, 1000000);
    else if (flag == "--warmup") run.warmup = parse_count(flag, flags.value(), 0, 1000000);
    else if (flag == "--chain") run.chain = flags.value();
    else if (flag == "--validation") run.validation = true;
    else if (flag == "--device") run.device = flags.value();
    else if (flag == "--list-images") run.list_images = true;
    else if (flag == "--no-gpu-timing") run.gpu_timing = false;
    else if (flag == "--quiet") run.print_table = false;
    else if (flag == "--jitter") run.scene.jitter = true;
    else if (flag == "--jitter-length") {
      const std::string& v = flags.value();
      if (v != "8" && v != "16") throw UsageError("--jitter-length wants 8 or 16, got '" + v + "'");
      run.scene.jitter_length = uint32_t(std::stoul(v));
    } else if (flag == "--camera-cut-at")
      run.scene.camera_cuts.push_back(parse_count(flag, flags.value(), 0, 1000000));
    else if (flag == "--exposure") {
      const std::string text = flags.value();
      if (text == "auto") run.display.automatic = true;
      else set_exposure(flag, parse_float(flag, text));
    } else if (flag == "--ev") {
      const std::string text = flags.value();
      const std::optional<double> stops = strict_number(text);
      if (!stops || std::abs(*stops) > 20) throw UsageError("--ev wants stops from -20 to 20, got '" + text + "'");
      set_exposure(flag, float(std::exp2(*stops)));
    } else if (flag == "--tonemap") {
      const std::string text = flags.value();
      const auto curve = passes::parse_tonemapper(text);
      if (!curve)
        throw UsageError("--tonemap " + text + ": want " + passes::tonemapper_names(", ") +
                         did_you_mean(text, passes::tonemapper_name_list()));
      run.display.tonemapper = *curve;
      tonemap_given = true;
    } else if (flag == "--shader-dir") run.shader_dir = flags.value();
    else if (flag == "--shader-source") run.glsl_dir = flags.value();
    else if (flag == "--camera") {
      const std::string& v = flags.value();
      if (v != "orbit" && v != "fixed") throw UsageError("--camera wants orbit or fixed, got '" + v + "'");
      run.scene.orbit_camera = v == "orbit";
    } else if (flag == "--animate") {
      const std::string& v = flags.value();
      if (v != "on" && v != "off") throw UsageError("--animate wants on or off, got '" + v + "'");
      run.scene.animate_objects = v == "on";
    } else if (flag == "--capture") {
      run.captures.push_back(parse_capture(flag, flags.value(), "final"));
    } else if (flag == "--screenshot") {
      out.window.screenshot = flags.value();
      if (!runtime::capture_extension_supported(*out.window.screenshot))
        throw UsageError("--screenshot " + out.window.screenshot->string() +
                         ": the file must end in .png, .pfm or .exr");
      check_writable(flag, *out.window.screenshot);
      window_only = flag;
    } else if (flag == "--present-mode") {
      const std::string& v = flags.value();
      const auto mode = vk::parse_present_mode(v);
      if (!mode) throw UsageError("--present-mode wants fifo, mailbox or immediate, got '" + v + "'");
      out.window.present_mode = *mode;
      window_only = flag;
    } else if (flag == "--compare") {
      out.window.compare_chain = flags.value();
      if (out.window.compare_chain->empty())
        throw UsageError("--compare wants chain B, e.g. " + filters::registry().default_family().name);
      window_only = flag;
    } else if (flag == "--compare-mode") {
      const std::string v = flags.value();
      const auto mode = passes::parse_compare_mode(v);
      if (!mode) throw UsageError("--compare-mode wants split, diff or side, got '" + v + "'");
      out.window.compare_mode = *mode;
      window_only = flag;
    } else if (flag == "--divider") {
      out.window.divider = int32_t(parse_count(flag, flags.value(), 1, 16384));
      window_only = flag;
    } else if (flag == "--gain") {
      out.window.gain = parse_float(flag, flags.value());
      window_only = flag;
    } else if (flag == "--load-chain") {
      load_chain = flags.value();
    } else if (flag == "--save-chain") {
      out.window.save_preset = flags.value();
      check_writable(flag, *out.window.save_preset);
    } else if (flag == "--viewport") {
      out.window.viewport = flags.value();
      if (out.window.viewport.empty())
        throw UsageError("--viewport wants an image name (see run --headless --list-images)");
      window_only = flag;
    } else if (flag == "--no-ui") {
      out.window.show_ui = false;
      window_only = flag;
    } else if (flag == "--pause") {
      out.window.paused = true;
      window_only = flag;
    } else if (flag == "--no-hot-reload") {
      out.window.hot_reload = false;
      window_only = flag;
    } else if (flag == "--screenshot-dir") {
      out.window.screenshot_dir = flags.value();
      check_folder_can_take_files(flag, out.window.screenshot_dir);
      window_only = flag;
    } else if (flag == "--timings") {
      run.timings_json = flags.value();
      check_writable(flag, *run.timings_json);
    } else if (flag == "--dump-graph") {
      run.dump_graph = flags.value();
      check_writable(flag, *run.dump_graph);
    } else {
      unknown_option("run", flag);
    }
  }
  if (out.headless && !window_only.empty())
    throw UsageError(window_only + " needs the window: drop --headless");
  if (load_chain) {
    if (!view_flag.empty())
      throw UsageError(view_flag + " and --load-chain: the preset sets it (edit the preset, or drop one)");
    try {
      apply_preset(load_preset(*load_chain), run, out.window);
    } catch (const PresetError& e) {
      throw UsageError("--load-chain " + std::string(e.what()));
    }
  }
  if (run.scene_camera && !run.scene_file)
    throw UsageError("--scene-camera names a camera of a --scene FILE");
  if (run.image && run.scene_file) throw UsageError("--image and --scene: one content at a time");
  // A PNG or JPEG is a picture made for display: shown as stored, not through a film curve.
  if (run.image && !tonemap_given && !load_chain && io::is_srgb_picture(*run.image))
    run.display.tonemapper = passes::Tonemapper::None;
  if (run.image) {  // its header only, through the size gate (io::InputError is exit 2)
    const io::ImageHeader h = io::read_image_header(*run.image);
    if (!size_given) run.size = {h.width, h.height};  // the image's own size
  }
  out.window.default_size = !size_given && !run.image;
  if (!out.headless) parse_window_script(out.window);
  if (!out.headless && (run.timings_json || run.list_images))
    throw UsageError(std::string(run.timings_json ? "--timings" : "--list-images") + " needs --headless");
}

void parse_info(Flags& flags, CliOptions& out) {
  while (flags.next()) {
    const std::string& flag = flags.flag();
    if (flag == "--device") out.info_device = flags.value();
    else if (flag == "--validation") out.info_validation = true;
    else if (flag == "--json") {
      out.info_json = flags.value();
      check_writable(flag, *out.info_json);
    } else unknown_option("info", flag);
  }
}

void parse_methods(Flags& flags, CliOptions& out) {
  while (flags.next()) {
    if (flags.flag() == "--json") out.methods.json = true;
    else if (!parse_device_flag(flags, out.gpu)) unknown_option("methods", flags.flag());
  }
}

// `--src-roi V` for `--param src_roi=V`: any parameter of a registered family, by its name with
// dashes for underscores. The step's schema then refuses one its family or method does not take.
std::optional<std::string> param_shorthand(const std::string& flag) {
  if (flag.rfind("--", 0) != 0) return std::nullopt;
  std::string name = flag.substr(2);
  std::replace(name.begin(), name.end(), '-', '_');
  for (const filters::Family* family : filters::registry().families())
    if (family->param(name)) return name;
  return std::nullopt;
}

// `key=value`, for --param.
filters::RawParam key_value(const std::string& flag, const std::string& text) {
  const size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
    throw UsageError(flag + " wants key=value, got '" + text + "'");
  return {text.substr(0, eq), text.substr(eq + 1)};
}

// The step's schema: unknown, duplicate, out-of-range and non-finite parameters are usage errors.
void check_step(const filters::FilterStep& step) {
  try {
    filters::resolve(step);
  } catch (const filters::ChainError& e) {
    throw UsageError(e.what());
  }
}

void parse_filter(Flags& flags, CliOptions& out) {
  FilterOptions& f = out.filter;
  f.step.filter = filters::registry().default_family().name;
  bool have_input = false, have_output = false;
  while (flags.next()) {
    const std::string& flag = flags.flag();
    const std::optional<std::string> shorthand = param_shorthand(flag);
    if (flag == "--input") f.input = flags.value(), have_input = true;
    else if (flag == "--output") f.output = flags.value(), have_output = true;
    else if (flag == "--filter") f.step.filter = flags.value();
    else if (flag == "--method") f.step.method = flags.value();
    else if (flag == "--param") f.step.params.push_back(key_value(flag, flags.value()));
    else if (shorthand) f.step.params.emplace_back(*shorthand, flags.value());
    else if (flag == "--raw") f.raw = true;
    else if (flag == "--png-format") {
      const std::string text = flags.value();
      f.png = io::parse_png_layout(text);
      if (!f.png)
        throw UsageError("--png-format " + text +
                         ": want gray8, gray16, graya8, graya16, rgb8, rgb16, rgba8 or rgba16");
    } else if (flag == "--capture") f.captures.push_back(parse_capture(flag, flags.value(), "image"));
    else if (!parse_device_flag(flags, out.gpu)) unknown_option("filter", flag);
  }
  if (!have_input) throw UsageError("filter needs --input FILE (.png, .jpg, .jpeg, .pfm or .exr)");
  if (!have_output) throw UsageError("filter needs --output FILE (.png, .pfm or .exr)");
  if (!io::is_image_extension(f.input))
    throw UsageError("--input " + f.input.string() +
                     ": unsupported file type (use .png, .jpg, .jpeg, .pfm or .exr)");
  if (!io::is_output_extension(f.output)) {
    // `--output stddev` meant as a family's own `output` parameter: --output is the file,
    // always; a parameter named like an option is set with --param.
    const filters::Family* named = filters::registry().find(f.step.filter);
    const filters::Param* output = named ? named->param("output") : nullptr;
    if (output &&
        std::find(output->choices.begin(), output->choices.end(), f.output.string()) != output->choices.end())
      throw UsageError("--output " + f.output.string() + ": --output is the file to write; " + named->name +
                       "'s parameter `output` is set with --param output=" + f.output.string());
    throw UsageError("--output " + f.output.string() + ": unsupported file type (use .png, .pfm or .exr)");
  }
  check_writable("--output", f.output);
  for (size_t i = 0; i < f.captures.size(); ++i) {
    if (std::filesystem::absolute(f.captures[i].path) == std::filesystem::absolute(f.output))
      throw UsageError("--capture " + f.captures[i].path.string() + " is the --output file too");
    for (size_t j = 0; j < i; ++j)
      if (f.captures[j].image == f.captures[i].image ||
          std::filesystem::absolute(f.captures[j].path) == std::filesystem::absolute(f.captures[i].path))
        throw UsageError("--capture " + f.captures[i].image + "=" + f.captures[i].path.string() +
                         ": that image or that file is captured twice");
  }
  // A method name, not a chain: "comp.tiled,bogus" or "comp.tiled:radius=5" would smuggle steps or
  // parameters past the flags.
  if (f.step.method.find_first_of(",:=") != std::string::npos)
    throw UsageError("--method wants a method name (see filterlab methods), got '" + f.step.method +
                     "'; parameters go in --param key=value");
  const filters::Family* family = filters::registry().find(f.step.filter);
  if (family && f.step.method.empty() && family->default_method.empty())
    throw UsageError("filter needs --method (see filterlab methods)");
  f.step.text = filters::step_spec(f.step);
  check_step(f.step);
}

void parse_bench(Flags& flags, CliOptions& out) {
  bench::BenchOptions& b = out.bench;
  bool swept = false;  // the first --radii or --sweep replaces the default sweep over the radius
  bool precision_given = false;
  while (flags.next()) {
    const std::string& flag = flags.flag();
    if (flag == "--filter") {
      b.filter = flags.value();
    } else if (flag == "--methods") {
      b.methods = split_list(flag, flags.value());
    } else if (flag == "--radii" || flag == "--sweep") {
      bench::Sweep sweep;
      if (flag == "--radii") {
        sweep = {bench::kSizeSweep, split_list(flag, flags.value())};
      } else {
        const filters::RawParam kv = key_value(flag, flags.value());
        sweep = {kv.first, split_list(flag, kv.second)};
      }
      if (sweep.param == "precision") throw UsageError(flag + ": sweep precisions with --precision");
      if (!swept) b.sweeps.clear();
      swept = true;
      for (const bench::Sweep& s : b.sweeps)
        if (s.param == sweep.param) throw UsageError(sweep.param + " is swept twice");
      b.sweeps.push_back(sweep);
    } else if (flag == "--param") {
      b.params.push_back(key_value(flag, flags.value()));
      if (b.params.back().first == "precision")
        throw UsageError("--param precision: bench times the precisions --precision lists");
    } else if (flag == "--scene") {
      b.scene = scene_flag(flags.value());
    } else if (flag == "--scene-camera") {
      b.scene_camera = flags.value();
    } else if (flag == "--sizes") {
      b.sizes.clear();
      for (const std::string& size : split_list(flag, flags.value())) b.sizes.push_back(parse_size(size));
    } else if (flag == "--precision") {
      precision_given = true;
      b.precisions.clear();
      for (const std::string& p : split_list(flag, flags.value())) {
        if (p != "fp16" && p != "fp32") throw UsageError(flag + " wants fp16 or fp32, got '" + p + "'");
        b.precisions.push_back(p);
      }
    } else if (flag == "--frames") b.frames = parse_count(flag, flags.value(), 1, 100000);
    else if (flag == "--warmup") b.warmup = parse_count(flag, flags.value(), 0, 100000);
    else if (flag == "--warmup-ms") b.warmup_ms = parse_count(flag, flags.value(), 0, 600000);
    else if (flag == "--inputs") b.inputs = parse_count(flag, flags.value(), 1, 16);
    else if (flag == "--repeat") b.repeats = parse_count(flag, flags.value(), 1, 20);
    else if (flag == "--no-error") b.measure_error = false;
    else if (flag == "--tune") b.tune = true;
    else if (flag == "--tune-file") {
      b.tune_file = flags.value();
      check_writable(flag, *b.tune_file);
    } else if (flag == "--captures") {
      b.captures_dir = flags.value();
      check_folder_can_take_files(flag, *b.captures_dir);  // made when the first capture is written
    } else if (flag == "--quiet") out.quiet = true;
    else if (flag == "--json") {
      out.bench_json = flags.value();
      check_writable(flag, *out.bench_json);
    } else if (flag == "--csv") {
      out.bench_csv = flags.value();
      check_writable(flag, *out.bench_csv);
    } else if (const std::optional<std::string> shorthand = param_shorthand(flag)) {
      b.params.emplace_back(*shorthand, flags.value());  // --kernel box: --param kernel=box
    } else if (!parse_device_flag(flags, out.gpu)) {
      unknown_option("bench", flag);
    }
  }
  // The default sweep is over the family's size parameter: a family without one is timed at its
  // defaults.
  if (b.filter.empty()) b.filter = filters::registry().default_family().name;
  const filters::Family* family = nullptr;
  try {
    family = &filters::registry().family(b.filter);
  } catch (const filters::ChainError& e) {
    throw UsageError(std::string("--filter: ") + e.what());
  }
  const filters::Param* size = family->size_param();
  if (!swept && !size) b.sweeps.clear();
  for (bench::Sweep& sweep : b.sweeps)
    if (sweep.param == bench::kSizeSweep) {
      if (!size) throw UsageError("--radii: " + family->name + " has no size parameter to sweep");
      sweep.param = size->name;
      if (std::count_if(b.sweeps.begin(), b.sweeps.end(),
                        [&](const bench::Sweep& s) { return s.param == size->name; }) > 1)
        throw UsageError(size->name + " is swept twice");
    }
  if (b.tune_file && !b.tune) throw UsageError("--tune-file is for --tune");
  if (b.tune) {
    if (!family->find("auto")) throw UsageError("--tune: " + family->name + " has no auto method to tune");
    if (!precision_given) b.precisions = {"fp16", "fp32"};
    if (b.methods.empty())
      for (const filters::Method& m : family->methods)
        if (m.exact && m.name != "auto") b.methods.push_back(m.name);
    b.measure_error = false;
    if (!b.tune_file)  // the device's default file: its folder must take a file, checked now
      check_folder_can_take_files("--tune", filters::tune_path({}).parent_path());
  }
  // A fixed radius (--radius 4) replaces the default sweep over it; one swept explicitly clashes.
  if (!swept)
    std::erase_if(b.sweeps, [&](const bench::Sweep& sweep) {
      return std::any_of(b.params.begin(), b.params.end(),
                         [&](const auto& p) { return p.first == sweep.param; });
    });
  for (const bench::Sweep& sweep : b.sweeps)
    for (const filters::RawParam& fixed : b.params)
      if (fixed.first == sweep.param)
        throw UsageError(sweep.param + " is both fixed (--param or --" + sweep.param + ") and swept");
  for (const std::string& m : b.methods) try {
      family->method(m);
    } catch (const filters::ChainError& e) {
      throw UsageError(std::string("--methods: ") + e.what());
    }
  // Every case's step (the methods asked for) against the schema now, before any GPU work.
  std::set<std::string> taken;  // the parameters some method asked for takes
  const filters::Method* first = nullptr;
  for (const filters::Method& m : family->methods) {
    if (!b.methods.empty() && std::find(b.methods.begin(), b.methods.end(), m.name) == b.methods.end())
      continue;
    // A parameter that only some methods take is set on those (bench times the others once).
    auto takes = [&](const std::string& key) {
      const filters::Param* param = family->param(key);
      const bool takes_it = !param || param->takes(m.name);  // an unknown key: the schema's error below
      if (takes_it) taken.insert(key);
      return takes_it;
    };
    if (!first) first = &m;
    filters::FilterStep step{family->name, m.name, b.params, ""};
    std::erase_if(step.params, [&](const filters::RawParam& p) { return !takes(p.first); });
    check_step(step);
    for (const bench::Sweep& sweep : b.sweeps)
      for (const std::string& value : sweep.values) {
        if (!takes(sweep.param)) continue;
        filters::FilterStep point = step;
        point.set(sweep.param, value);
        check_step(point);
      }
  }
  // A parameter no method asked for takes: the schema's message, as the first method would get it.
  std::vector<std::string> keys;
  for (const filters::RawParam& p : b.params) keys.push_back(p.first);
  for (const bench::Sweep& sweep : b.sweeps) keys.push_back(sweep.param);
  for (const std::string& key : keys)
    if (first && !taken.count(key)) {
      filters::FilterStep step{family->name, first->name, b.params, ""};
      for (const bench::Sweep& sweep : b.sweeps) step.set(sweep.param, sweep.values.front());
      check_step(step);
    }
}

void parse_quality(Flags& flags, CliOptions& out) {
  QualityOptions& q = out.quality;
  while (flags.next()) {
    const std::string& flag = flags.flag();
    if (flag == "--size") q.size = parse_size(flags.value());
    else if (flag == "--scene") q.scene = scene_flag(flags.value());
    else if (flag == "--scene-camera") q.scene_camera = flags.value();
    else if (flag == "--image") {
      q.image = flags.value();
      if (!io::is_image_extension(*q.image))
        throw UsageError("--image " + q.image->string() +
                         ": unsupported file type (use .png, .jpg, .jpeg, .pfm or .exr)");
      const io::ImageHeader h = io::read_image_header(*q.image);  // io::InputError: exit 2
      q.size = {h.width, h.height};
    } else if (flag == "--radii") {
      q.radii.clear();
      for (const std::string& r : split_list(flag, flags.value())) {
        q.radii.push_back(int(parse_count(flag, r, 1, 1000000)));
        // Each tabled family's schema decides the range.
        for (const filters::Family* family : filters::registry().families())
          if (!family->tools.quality.baseline.empty())
            check_step({family->name, family->tools.quality.baseline, {{family->size_param()->name, r}}, ""});
      }
    } else if (flag == "--markdown") {
      q.markdown = flags.value();
      check_writable(flag, *q.markdown);
    } else if (flag == "--json") {
      q.json = flags.value();
      check_writable(flag, *q.json);
    } else if (!parse_device_flag(flags, out.gpu)) {
      unknown_option("quality", flag);
    }
  }
  if (q.size.width < 16 || q.size.height < 16)
    throw UsageError(std::string("quality wants ") + (q.image ? "an --image" : "--size") +
                     " of at least 16x16 (SSIM uses 11x11 windows)");
}

void parse_evaluate(Flags& flags, CliOptions& out) {
  EvaluateOptions& t = out.evaluate;
  while (flags.next()) {
    const std::string& flag = flags.flag();
    if (flag == "--filter") t.filter = flags.value();
    else if (flag == "--scene") t.scene = scene_flag(flags.value());
    else if (flag == "--scene-camera") t.scene_camera = flags.value();
    else if (flag == "--size") t.size = parse_size(flags.value());
    else if (flag == "--frames") t.frames = uint32_t(parse_count(flag, flags.value(), 1, 4096));
    else if (flag == "--grid") t.grid = uint32_t(parse_count(flag, flags.value(), 1, 64));
    else if (flag == "--json") {
      t.json = flags.value();
      check_writable(flag, *t.json);
    } else if (!parse_device_flag(flags, out.gpu)) {
      unknown_option("evaluate", flag);
    }
  }
  if (t.size.width < 16 || t.size.height < 16)
    throw UsageError("evaluate wants --size of at least 16x16 (SSIM uses 11x11 windows)");
  std::string offered;
  for (const filters::Family* f : filters::registry().families())
    if (f->tools.evaluation) {
      offered += (offered.empty() ? "" : " ") + f->name;
      if (t.filter.empty()) t.filter = f->name;
    }
  const filters::Family* family = filters::registry().find(t.filter);
  if (!family || !family->tools.evaluation)
    throw UsageError("evaluate --filter: '" + t.filter +
                     "' offers no evaluation (those that do: " + (offered.empty() ? "none" : offered) + ")");
}

void parse_compare(Flags& flags, CliOptions& out) {
  CompareOptions& c = out.compare;
  std::vector<std::filesystem::path> files;
  while (flags.next()) {
    const std::string& flag = flags.flag();
    if (flag == "--json") {
      c.json = flags.value();
      check_writable(flag, *c.json);
    } else if (flag == "--diff") {
      c.diff = flags.value();
      if (!c.diff->string().ends_with(".png"))
        throw UsageError("--diff wants a .png file, got '" + c.diff->string() + "'");
      check_writable(flag, *c.diff);
    } else if (flag == "--gain") {
      c.gain = parse_float(flag, flags.value());
    } else if (flag == "--alpha") {
      const std::string& v = flags.value();
      if (v != "on" && v != "off") throw UsageError("--alpha wants on or off, got '" + v + "'");
      c.alpha = v == "on";
    } else if (flag.starts_with("--")) {
      unknown_option("compare", flag);
    } else {
      files.push_back(flag);
    }
  }
  if (files.size() != 2) throw UsageError("compare wants two image files: filterlab compare A B");
  for (const auto& f : files)
    if (!io::is_image_extension(f))
      throw UsageError(f.string() + ": unsupported file type (use .png, .jpg, .jpeg or .pfm)");
  c.a = files[0];
  c.b = files[1];
}

void parse_report(Flags& flags, CliOptions& out) {
  bool have_out = false;
  while (flags.next()) {
    const std::string& flag = flags.flag();
    if (flag == "--out") {
      out.report_out = flags.value();
      have_out = true;
      if (out.report_out.extension() != ".html")
        throw UsageError("--out wants a .html file, got '" + out.report_out.string() + "'");
      check_writable(flag, out.report_out);
    } else if (flag == "--captures-from") {
      const std::filesystem::path dir = flags.value();
      std::error_code ec;
      if (!std::filesystem::is_directory(dir, ec))
        throw UsageError("--captures-from " + dir.string() + ": not a folder");
      out.report_capture_roots.push_back(dir);
    } else if (flag.starts_with("--")) {
      unknown_option("report", flag);
    } else {
      out.report_inputs.push_back(flag);
    }
  }
  if (out.report_inputs.empty()) throw UsageError("report wants at least one bench JSON file");
  if (!have_out) throw UsageError("report needs --out FILE.html");
}

}  // namespace

CliOptions parse_cli(const std::vector<std::string>& args, const std::filesystem::path& exe_dir) {
  CliOptions out;
  out.run.shader_dir = exe_dir / "shaders";
  out.gpu.shader_dir = exe_dir / "shaders";
  // `filterlab` alone opens the window (`filterlab run`), as the README's quick start says.
  if (args.empty()) return parse_cli({"run"}, exe_dir);
  const std::string& command = args[0];
  if (command == "help" || command == "--help" || command == "-h") {
    // filterlab help COMMAND: that command's options, as COMMAND --help.
    if (args.size() > 1 && std::find(kCommands.begin(), kCommands.end(), args[1]) != kCommands.end())
      out.help_command = args[1];
    else if (args.size() > 1)
      throw UsageError("help: unknown command '" + args[1] + "'" + did_you_mean(args[1], kCommands));
    return out;
  }
  // filterlab COMMAND --help: that command's options.
  if (std::find(kCommands.begin(), kCommands.end(), command) != kCommands.end() &&
      std::any_of(args.begin() + 1, args.end(),
                  [](const std::string& a) { return a == "--help" || a == "-h"; })) {
    out.help_command = command;
    return out;
  }
  if (command == "--version") {
    out.command = Command::Version;
    return out;
  }
  Flags flags(args);
  if (command == "filters") {
    out.command = Command::ListFilters;
    if (flags.next()) throw UsageError("filters takes no options, got '" + flags.flag() + "'");
  } else if (command == "info") {
    out.command = Command::Info;
    parse_info(flags, out);
  } else if (command == "run") {
    out.command = Command::Run;
    parse_run(flags, out);
  } else if (command == "methods") {
    out.command = Command::Methods;
    parse_methods(flags, out);
  } else if (command == "filter") {
    out.command = Command::Filter;
    parse_filter(flags, out);
  } else if (command == "bench") {
    out.command = Command::Bench;
    parse_bench(flags, out);
  } else if (command == "quality") {
    out.command = Command::Quality;
    parse_quality(flags, out);
  } else if (command == "evaluate") {
    out.command = Command::Evaluate;
    parse_evaluate(flags, out);
  } else if (command == "compare") {
    out.command = Command::Compare;
    parse_compare(flags, out);
  } else if (command == "report") {
    out.command = Command::Report;
    parse_report(flags, out);
  } else {
    throw UsageError(
        "unknown command '" + command +
        "' (commands: run, info, filters, methods, filter, bench, quality, evaluate, compare, report, help)" +
        did_you_mean(command, kCommands));
  }
  // A camera of a scene file means nothing without the file (it was accepted and ignored).
  for (const auto& [camera, scene] : {std::pair{&out.bench.scene_camera, &out.bench.scene},
                                      std::pair{&out.quality.scene_camera, &out.quality.scene},
                                      std::pair{&out.evaluate.scene_camera, &out.evaluate.scene}})
    if (*camera && !*scene) throw UsageError("--scene-camera names a camera of a --scene FILE");
  out.bench.device = out.gpu.device;
  out.bench.validation = out.gpu.validation;
  out.bench.shader_dir = out.gpu.shader_dir;
  out.bench.glsl_dir = out.gpu.glsl_dir;
  if (out.bench.captures_dir && !out.bench.measure_error)
    throw UsageError("--captures needs the error measurement (drop --no-error)");
  return out;
}

}  // namespace filterlab::app
