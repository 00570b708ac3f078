#include "preflight.h"

#include "filters/auto_method.h"
#include "filters/chain.h"
#include "runtime/frame_graph.h"
#include "vk/shader_manifest.h"

namespace filterlab::app {

namespace {

void check_run(const CliOptions& options) {
  const runtime::RunOptions& run = options.run;
  vk::check_shader_files({run.shader_dir, run.glsl_dir});
  const std::vector<filters::FilterStep> steps = filters::parse_chain(run.chain);
  filters::check_chain(steps, run.size.width, run.size.height);
  std::vector<std::string> images;
  for (const runtime::Capture& c : run.captures) images.push_back(c.image);
  if (!options.headless) {
    if (options.window.compare_chain)
      filters::check_chain(filters::parse_chain(*options.window.compare_chain), run.size.width,
                           run.size.height);
    else
      images.push_back(options.window.viewport);
  }
  runtime::check_image_names_before_device(steps, images);
}

}  // namespace

void check_before_device(const CliOptions& options) {
  switch (options.command) {
    case Command::Run:
      check_run(options);
      break;
    case Command::Filter:
    case Command::Methods:
    case Command::Bench:
    case Command::Quality:
    case Command::TaaEval:
      vk::check_shader_files({options.gpu.shader_dir, options.gpu.glsl_dir});
      break;
    case Command::Help:
    case Command::Version:
    case Command::ListFilters:
    case Command::Info:
    case Command::Compare:
    case Command::Report:
      return;  // no shaders, no filters
  }
  filters::check_tune_file_from_environment();
}

}  // namespace filterlab::app
