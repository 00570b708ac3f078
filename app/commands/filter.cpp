// `filterlab filter`: one image file through one method of one family, with no window.
#include "commands/filter.h"

#include "command.h"

#include "filters/apply.h"
#include "filters/precision.h"
#include "filters/registry.h"
#include "io/image_files.h"
#include "vk/formats.h"
#include "vk/shader_manifest.h"

#include "filters/auto_method.h"

#include <algorithm>
#include <cstdio>

namespace filterlab::app {
namespace {

constexpr std::string_view kSynopsis =
    R"(  filter              filter one image file (PNG, JPEG or PFM) with one method, no window
)";

constexpr std::string_view kOptions = R"(filter options:
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
)";

std::string size_text(const io::ImageHeader& h) {
  return std::to_string(h.width) + "x" + std::to_string(h.height);
}

std::string gib(double bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f GiB", bytes / double(1ull << 30));
  return text;
}

// Whether the device can hold the image: its side limit, and its memory for the input, its upload
// buffer, the output and an intermediate of `texel_bytes` per pixel each.
void check_fits_device(const std::filesystem::path& path, const io::ImageHeader& h, const vk::Context& ctx,
                       uint32_t texel_bytes) {
  const vk::DeviceReport& d = ctx.report();
  if (h.width > d.max_image_dimension_2d || h.height > d.max_image_dimension_2d)
    throw UsageError(path.string() + " is " + size_text(h) + ": " + d.name + " takes images up to " +
                     std::to_string(d.max_image_dimension_2d) + " pixels a side");
  const double need = double(h.width) * h.height * texel_bytes * 4;
  if (d.device_local_bytes && need > double(d.device_local_bytes))
    throw UsageError(path.string() + " is " + size_text(h) + ": filtering it needs " + gib(need) + ", " +
                     d.name + " has " + gib(double(d.device_local_bytes)));
}

}  // namespace

FilterRequest parse_filter(Args& args) {
  FilterRequest f;
  f.gpu = default_device_options(args);
  f.step.filter = filters::registry().default_family().name;
  bool have_input = false, have_output = false;
  while (args.next()) {
    const std::string& flag = args.flag();
    const std::optional<std::string> shorthand = param_shorthand(flag);
    if (flag == "--input") f.input = args.value(), have_input = true;
    else if (flag == "--output") f.output = args.value(), have_output = true;
    else if (flag == "--filter") f.step.filter = args.value();
    else if (flag == "--method") f.step.method = args.value();
    else if (flag == "--param") f.step.params.push_back(parse_key_value(flag, args.value()));
    else if (shorthand) f.step.params.emplace_back(*shorthand, args.value());
    else if (flag == "--raw") f.raw = true;
    else if (flag == "--png-format") {
      const std::string text = args.value();
      f.png = io::parse_png_layout(text);
      if (!f.png)
        throw UsageError("--png-format " + text +
                         ": want gray8, gray16, graya8, graya16, rgb8, rgb16, rgba8 or rgba16");
    } else if (flag == "--capture") f.captures.push_back(parse_capture(flag, args.value(), "image"));
    else if (!parse_device_flag(args, f.gpu)) args.unknown();
  }
  if (!have_input) throw UsageError("filter needs --input FILE (.png, .jpg, .jpeg, .pfm or .exr)");
  if (!have_output) throw UsageError("filter needs --output FILE (.png, .pfm or .exr)");
  check_image_extension("--input", f.input);
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
  // parameters past the args.
  if (f.step.method.find_first_of(",:=") != std::string::npos)
    throw UsageError("--method wants a method name (see filterlab methods), got '" + f.step.method +
                     "'; parameters go in --param key=value");
  const filters::Family* family = filters::registry().find(f.step.filter);
  if (family && f.step.method.empty() && family->default_method.empty())
    throw UsageError("filter needs --method (see filterlab methods)");
  f.step.text = filters::step_spec(f.step);
  check_step(f.step);
  return f;
}

namespace {

int filter_file(const FilterRequest& f) {
  const io::Encoding encoding = f.raw ? io::Encoding::Raw : io::Encoding::Srgb;
  const io::ImageHeader header = io::read_image_header(f.input);  // the size gate: exit 2
  // Samples that halves cannot hold (a 16-bit PNG, float OpenEXR and PFM) are filtered in fp32 unless
  // --precision says otherwise: in fp16 a 16-bit PNG erred by up to 16/65535 (issue #54).
  filters::FilterStep filtered = f.step;
  const bool wide = header.bits > 16 || (header.bits == 16 && io::is_srgb_picture(f.input));
  if (wide && !filtered.find("precision") && filters::registry().family(filtered.filter).param("precision"))
    filtered.set("precision", "fp32");
  const filters::ResolvedStep step = filters::resolve(filtered);
  filters::check_scene_inputs(step, false, false);                // a still image has no depth and no motion
  filters::check_chain({filtered}, header.width, header.height);  // a ROI that leaves the image
  const VkFormat format = step.family->param("precision") ? filters::precision_format(step.params)
                                                          : VK_FORMAT_R32G32B32A32_SFLOAT;
  // The whole file decoded before any device is opened: a corrupt body is bad input too (exit 2).
  const io::ImageF input = io::read_image_file(f.input, encoding);

  vk::Context ctx = make_context(f.gpu);
  check_fits_device(f.input, header, ctx, vk::format_texel_size(format));
  filters::check_support(step, ctx);
  vk::ShaderSource shaders{f.gpu.shader_dir, f.gpu.glsl_dir};
  std::vector<std::string> names;
  for (const runtime::Capture& c : f.captures) names.push_back(c.image);
  filters::StepImages images;
  try {
    images = filters::apply_filter_reading(ctx, shaders, input, filtered, names, format);
  } catch (const filters::ChainError& e) {
    throw UsageError(e.what());  // a capture the step does not make: nothing ran, nothing is written
  }
  // The outputs keep the input's channels (the filter ran on RGBA): an OpenEXR output with the
  // precision's samples, a PNG with the input's bits unless --png-format says otherwise.
  auto write = [&](const std::filesystem::path& path, io::ImageF image) {
    if (path.extension() == ".exr") image = io::first_channels(image, input.channels);
    io::write_image_file(path, image, encoding,
                         vk::format_is_half(format) ? io::ExrSamples::Half : io::ExrSamples::Float,
                         f.png.value_or(io::png_layout_of(header)));
  };
  write(f.output, images.output);
  std::printf("%s -> %s (%s, %ux%u)\n%s", f.input.string().c_str(), f.output.string().c_str(),
              filters::step_spec(filtered).c_str(), images.output.width, images.output.height,
              step.derived_text().c_str());
  for (size_t i = 0; i < f.captures.size(); ++i) {
    write(f.captures[i].path, images.named[i]);
    std::printf("%s -> %s\n", f.captures[i].image.c_str(), f.captures[i].path.string().c_str());
  }
  return validation_exit_code(ctx);
}

Work prepare(Args& args) {
  FilterRequest request = parse_filter(args);
  vk::check_shader_files({request.gpu.shader_dir, request.gpu.glsl_dir});
  if (request.step.method == "auto") filters::check_tune_file_from_environment();
  return [request] { return filter_file(request); };
}

}  // namespace

const Command& filter_command() {
  static const Command command{"filter", kSynopsis, kOptions,
                               Command::kDeviceOptions | Command::kFamilyParams | Command::kNamesFilters,
                               prepare};
  return command;
}

}  // namespace filterlab::app
