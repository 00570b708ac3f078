// `filterlab run`: the options, the checks before any device (the shader folders, the chains, the
// images named for captures and the viewport, the tune table an auto step reads) and the run, in
// the window or headless.
#include "commands/run.h"

#include "command.h"
#include "preset.h"
#include "window_app.h"
#include "window_graph.h"

#include "common/suggest.h"
#include "filters/auto_method.h"
#include "filters/chain.h"
#include "io/image_files.h"
#include "runtime/capture.h"
#include "runtime/frame_graph.h"
#include "vk/shader_manifest.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <set>

namespace filterlab::app {
namespace {

constexpr std::string_view kSynopsis =
    R"(  run                 show the scene and chain in a window (resizable; closes with the window)
  run --headless      render frames with no window, capture images, time every pass
)";

constexpr std::string_view kOptions = R"(run options:
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
  --flip REF,TEST     FLIP of image TEST against image REF every frame (any two --list-images names
                      of one size; its passes are timed, its map is the image "flip", its last mean
                      is printed): LDR-FLIP of 8-bit images (final, decoded from sRGB), HDR-FLIP of
                      the others (exposures from REF's luminance, or --flip-exposure)
  --flip-ldr          LDR-FLIP of HDR images too: their values as linear RGB clamped to 0..1
  --ppd P, --monitor W:PIXELS:D, --flip-exposure START:STOP:COUNT  as `compare` takes them
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
  --compare CHAIN     start with the A/B compare on: chain B beside --chain (A), live MSE/PSNR/SSIM/
                      FLIP/max
  --compare-mode M    split (default: A left of the divider), side (the middle halves of A and B
                      side by side), diff (|A-B| as a heat map) or flip (the FLIP map in magma)
  --compare-metrics displayed|hdr  the pair the metrics and the flip view measure: the displayed
                      images (default; LDR-FLIP) or the chains' HDR outputs (HDR-FLIP at A's exposures)
  --divider X         split: the first column of B (default: the middle)
  --gain G            diff: |A-B| times G is white at 1 (default: 1 / the frame's largest |A-B|)
  --viewport IMAGE    the graph image the viewport shows (default final; any --list-images name)
  --pause             start with the animation paused (Space pauses, N steps, Tab hides the panel)
  --no-ui             hide the control panel
  --screenshot-dir D  where F12 / the screenshot button save PNG + PFM + JSON (default screenshots)
  --no-hot-reload     do not watch shaders/ for edits
)";

// $FILTERLAB_WINDOW_SCRIPT, for scripts that drive the window as a user would (README, "Driving it
// deterministically"): steps separated by commas, each ACTION@FRAME: screenshot@F presses the
// screenshot key, resize@F:WxH resizes the window during frame F, minimize@F iconifies it and
// restores it a moment later, close@F asks it to close, inspect@F:X,Y pins the pixel inspector on
// pixel (X, Y) of the graph's image (the sidecar of --screenshot records its values). Not an
// option: nothing a user needs.
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
      throw UsageError(name + ": '" + step +
                       "' is not ACTION@FRAME (screenshot, resize, minimize, close, inspect)");
    const std::string action = step.substr(0, at), rest = step.substr(at + 1);
    if (action == "inspect") {  // inspect@F:X,Y: Y is the next comma's field
      const size_t colon = rest.find(':');
      const size_t y_end = std::min(text.find(',', start), text.size());
      if (colon == std::string::npos || colon == 0 || start > text.size())
        throw UsageError(name + ": inspect wants inspect@FRAME:X,Y, e.g. inspect@5:10,20, got '" + step +
                         "'");
      const std::string y = text.substr(start, y_end - start);
      start = y_end + 1;
      window.test_inspect_at.push_back(
          {parse_count(name, rest.substr(0, colon), 0, 1000000),
           int32_t(parse_count(name + " inspect x", rest.substr(colon + 1), 0, 16384)),
           int32_t(parse_count(name + " inspect y", y, 0, 16384))});
      continue;
    }
    if (action == "resize") {
      const size_t colon = rest.find(':');
      if (colon == std::string::npos || colon == 0)
        throw UsageError(name + ": resize wants resize@FRAME:WxH, e.g. resize@40:640x360, got '" + step +
                         "'");
      window.test_resizes.push_back({parse_count(name, rest.substr(0, colon), 0, 1000000),
                                     parse_size(rest.substr(colon + 1), name + " resize")});
      continue;
    }
    const uint32_t frame = parse_count(name + " " + action, rest, 0, 1000000);
    if (action == "screenshot") window.test_screenshot_at.push_back(frame);
    else if (action == "minimize") window.test_minimize_at = frame;
    else if (action == "close") window.test_close_at = frame;
    else
      throw UsageError(name + ": unknown action '" + action +
                       "' (screenshot, resize, minimize, close, inspect)");
  }
}

}  // namespace

RunRequest parse_run(Args& args) {
  RunRequest out;
  runtime::RunOptions& run = out.run;
  run.shader_dir = args.exe_dir() / "shaders";
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
  common::FlipViewing flip_viewing;
  std::optional<std::string> flip_flag;  // the first FLIP flag: all of them need --flip
  bool flip_ldr = false;
  while (args.next()) {
    const std::string& flag = args.flag();
    if (parse_flip_flag(args, flip_viewing)) {
      flip_flag = flip_flag.value_or(flag);
      continue;
    }
    static const std::set<std::string> kPresetFlags = {
        "--chain",         "--compare",      "--image",   "--scene",  "--scene-camera",   "--viewport",
        "--tonemap",       "--exposure",     "--ev",      "--camera", "--animate",        "--jitter",
        "--jitter-length", "--compare-mode", "--divider", "--gain",   "--compare-metrics"};
    if (kPresetFlags.count(flag)) view_flag = flag;
    if (flag == "--headless") out.headless = true;
    else if (flag == "--size") {
      run.size = parse_size(args.value());
      size_given = true;
    } else if (flag == "--scene") {
      run.scene_file = parse_scene(args.value());
    } else if (flag == "--scene-camera") {
      run.scene_camera = args.value();
    } else if (flag == "--image") {
      run.image = args.value();
      check_image_extension(flag, *run.image);
    } else if (flag == "--frames")
      out.window.frames = run.frames = parse_count(flag, args.value(), 1, 1000000);
    else if (flag == "--warmup") run.warmup = parse_count(flag, args.value(), 0, 1000000);
    else if (flag == "--chain") run.chain = args.value();
    else if (flag == "--validation") run.validation = true;
    else if (flag == "--device") run.device = args.value();
    else if (flag == "--list-images") run.list_images = true;
    else if (flag == "--no-gpu-timing") run.gpu_timing = false;
    else if (flag == "--quiet") run.print_table = false;
    else if (flag == "--jitter") run.scene.jitter = true;
    else if (flag == "--jitter-length") {
      const std::string& v = args.value();
      if (v != "8" && v != "16") throw UsageError("--jitter-length wants 8 or 16, got '" + v + "'");
      run.scene.jitter_length = uint32_t(std::stoul(v));
    } else if (flag == "--camera-cut-at")
      run.scene.camera_cuts.push_back(parse_count(flag, args.value(), 0, 1000000));
    else if (flag == "--exposure") {
      const std::string text = args.value();
      if (text == "auto") run.display.automatic = true;
      else set_exposure(flag, parse_positive(flag, text));
    } else if (flag == "--ev") {
      const std::string text = args.value();
      const std::optional<double> stops = strict_number(text);
      if (!stops || std::abs(*stops) > 20)
        throw UsageError("--ev wants stops from -20 to 20, got '" + text + "'");
      set_exposure(flag, float(std::exp2(*stops)));
    } else if (flag == "--tonemap") {
      const std::string text = args.value();
      const auto curve = passes::parse_tonemapper(text);
      if (!curve)
        throw UsageError("--tonemap " + text + ": want " + passes::tonemapper_names(", ") +
                         did_you_mean(text, passes::tonemapper_name_list()));
      run.display.tonemapper = *curve;
      tonemap_given = true;
    } else if (flag == "--shader-dir") run.shader_dir = args.value();
    else if (flag == "--shader-source") run.glsl_dir = args.value();
    else if (flag == "--camera") {
      const std::string& v = args.value();
      if (v != "orbit" && v != "fixed") throw UsageError("--camera wants orbit or fixed, got '" + v + "'");
      run.scene.orbit_camera = v == "orbit";
    } else if (flag == "--animate") {
      run.scene.animate_objects = parse_on_off(flag, args.value());
    } else if (flag == "--capture") {
      run.captures.push_back(parse_capture(flag, args.value(), "final"));
    } else if (flag == "--screenshot") {
      out.window.screenshot = args.value();
      if (!runtime::capture_extension_supported(*out.window.screenshot))
        throw UsageError("--screenshot " + out.window.screenshot->string() +
                         ": the file must end in .png, .pfm or .exr");
      check_writable(flag, *out.window.screenshot);
      window_only = flag;
    } else if (flag == "--present-mode") {
      const std::string& v = args.value();
      const auto mode = vk::parse_present_mode(v);
      if (!mode) throw UsageError("--present-mode wants fifo, mailbox or immediate, got '" + v + "'");
      out.window.present_mode = *mode;
      window_only = flag;
    } else if (flag == "--compare") {
      out.window.compare_chain = args.value();
      if (out.window.compare_chain->empty())
        throw UsageError("--compare wants chain B, e.g. " + filters::registry().default_family().name);
      window_only = flag;
    } else if (flag == "--compare-mode") {
      const std::string v = args.value();
      const auto mode = passes::parse_compare_mode(v);
      if (!mode) throw UsageError("--compare-mode wants split, diff, side or flip, got '" + v + "'");
      out.window.compare_mode = *mode;
      window_only = flag;
    } else if (flag == "--compare-metrics") {
      const std::string v = args.value();
      if (v != "displayed" && v != "hdr")
        throw UsageError("--compare-metrics wants displayed or hdr, got '" + v + "'");
      out.window.metrics_on_hdr = v == "hdr";
      window_only = flag;
    } else if (flag == "--divider") {
      out.window.divider = int32_t(parse_count(flag, args.value(), 1, 16384));
      window_only = flag;
    } else if (flag == "--gain") {
      out.window.gain = parse_positive(flag, args.value());
      window_only = flag;
    } else if (flag == "--load-chain") {
      load_chain = args.value();
    } else if (flag == "--save-chain") {
      out.window.save_preset = args.output_file();
    } else if (flag == "--viewport") {
      out.window.viewport = args.value();
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
      out.window.screenshot_dir = args.value();
      check_folder_can_take_files(flag, out.window.screenshot_dir);
      window_only = flag;
    } else if (flag == "--timings") {
      run.timings_json = args.output_file();
    } else if (flag == "--flip") {
      const std::vector<std::string> pair = split_list(flag, args.value());
      if (pair.size() != 2)
        throw UsageError("--flip wants two images, REF,TEST, e.g. --flip scene," +
                         filters::registry().default_family().name);
      run.flip = runtime::FlipRequest{pair[0], pair[1], false, {}};
    } else if (flag == "--flip-ldr") {
      flip_ldr = true;
      flip_flag = flip_flag.value_or(flag);
    } else if (flag == "--dump-graph") {
      run.dump_graph = args.output_file();
    } else {
      args.unknown();
    }
  }
  if (flip_flag && !run.flip) throw UsageError(*flip_flag + " is for --flip REF,TEST");
  if (run.flip) {
    if (!out.headless) throw UsageError("--flip needs --headless (the window's compare has a flip view)");
    run.flip->ldr = flip_ldr;
    run.flip->viewing = flip_viewing;
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
  return out;
}

namespace {

bool uses_auto(const std::vector<filters::FilterStep>& steps) {
  return std::any_of(steps.begin(), steps.end(),
                     [](const filters::FilterStep& s) { return s.method == "auto"; });
}

// The shader folders, the chains against the size, and the images the run names, before any
// device; the tune table where a step of the chains is `auto`.
void check_before_device(const RunRequest& request) {
  const runtime::RunOptions& run = request.run;
  vk::check_shader_files({run.shader_dir, run.glsl_dir});
  const std::vector<filters::FilterStep> steps = filters::parse_chain(run.chain);
  filters::check_chain(steps, run.size.width, run.size.height);
  std::vector<std::string> images, window_images;
  for (const runtime::Capture& c : run.captures) images.push_back(c.image);
  if (run.flip) {
    images.insert(images.end(), {run.flip->reference, run.flip->test});
    window_images.push_back(runtime::kFlipImage);
  }
  bool auto_step = uses_auto(steps);
  std::vector<filters::FilterStep> all = steps;
  if (!request.headless) {
    // The window's graph has images of its own, and chain B's under "b." with --compare.
    window_images = {WindowGraph::kViewport, WindowGraph::kWindow};
    if (request.window.compare_chain) {
      const std::vector<filters::FilterStep> b = filters::parse_chain(*request.window.compare_chain);
      filters::check_chain(b, run.size.width, run.size.height);
      for (const std::string& name : filters::step_image_names(b, "b.")) window_images.push_back(name);
      window_images.push_back(WindowGraph::kFinalB);
      window_images.insert(window_images.end(), {WindowGraph::kFlip, WindowGraph::kFlipHdr});
      auto_step = auto_step || uses_auto(b);
      all.insert(all.end(), b.begin(), b.end());
    } else {
      images.push_back(request.window.viewport);
    }
  }
  // A still image has no depth and no motion: the steps that read them are refused by name.
  if (run.image) filters::check_steps_on_still_image(all);
  runtime::check_image_names_before_device(steps, images, window_images, run.image.has_value());
  if (auto_step) filters::check_tune_file_from_environment();
}

int run(const RunRequest& request) {
  runtime::RunOptions run = request.run;
  for (const filters::FilterStep& step : filters::parse_chain(run.chain))
    std::fputs(filters::resolve(step).derived_text().c_str(), stderr);
  if (!request.headless) return run_window(run, request.window);
  runtime::RunResult result = runtime::run_headless(run);
  if (run.list_images) {
    std::cout << result.image_list;
    return 0;
  }
  if (run.timings_json) runtime::write_timings_json(result, run, *run.timings_json);
  if (request.window.save_preset) save_preset(*request.window.save_preset, preset_of(run, request.window));
  if (run.print_table) std::cout << runtime::format_table(result, run) << std::flush;
  for (const runtime::Capture& c : run.captures)
    if (run.print_table) std::cout << "wrote " << c.image << " -> " << c.path.string() << "\n";
  return validation_exit_code(result.validation_messages);
}

Work prepare(Args& args) {
  RunRequest request = parse_run(args);
  check_before_device(request);
  runtime::load_content(request.run);  // --image or --scene read before any device: a bad file is exit 2
  return [request] { return run(request); };
}

}  // namespace

const Command& run_command() {
  // Its help lists the device options among its own.
  static const Command command{"run", kSynopsis, kOptions, Command::kNamesFilters, prepare};
  return command;
}

}  // namespace filterlab::app
