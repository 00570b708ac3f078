#include "preflight.h"

#include "window_graph.h"

#include "filters/auto_method.h"
#include "filters/chain.h"
#include "runtime/frame_graph.h"
#include "vk/shader_manifest.h"

#include <algorithm>

namespace filterlab::app {

namespace {

bool uses_auto(const std::vector<filters::FilterStep>& steps) {
  return std::any_of(steps.begin(), steps.end(),
                     [](const filters::FilterStep& s) { return s.method == "auto"; });
}

// Returns whether a step of the run's chains is `auto` (which reads the tune table).
bool check_run(const CliOptions& options) {
  const runtime::RunOptions& run = options.run;
  vk::check_shader_files({run.shader_dir, run.glsl_dir});
  const std::vector<filters::FilterStep> steps = filters::parse_chain(run.chain);
  filters::check_chain(steps, run.size.width, run.size.height);
  std::vector<std::string> images, window_images;
  for (const runtime::Capture& c : run.captures) images.push_back(c.image);
  bool auto_step = uses_auto(steps);
  if (!options.headless) {
    // The window's graph has images of its own, and chain B's under "b." with --compare.
    window_images = {WindowGraph::kViewport, WindowGraph::kWindow};
    if (options.window.compare_chain) {
      const std::vector<filters::FilterStep> b = filters::parse_chain(*options.window.compare_chain);
      filters::check_chain(b, run.size.width, run.size.height);
      for (const std::string& name : filters::step_image_names(b, "b.")) window_images.push_back(name);
      window_images.push_back(WindowGraph::kFinalB);
      auto_step = auto_step || uses_auto(b);
    } else {
      images.push_back(options.window.viewport);
    }
  }
  // A still image has no depth and no motion: the steps that read them are refused by name.
  if (run.image) {
    std::vector<filters::FilterStep> all = steps;
    if (!options.headless && options.window.compare_chain)
      for (const filters::FilterStep& s : filters::parse_chain(*options.window.compare_chain))
        all.push_back(s);
    filters::check_steps_on_still_image(all);
  }
  runtime::check_image_names_before_device(steps, images, window_images, run.image.has_value());
  return auto_step;
}

// Whether `bench` times a family's auto method (bench --tune writes the table, and times no auto).
bool bench_times_auto(const bench::BenchOptions& b) {
  if (b.tune) return false;
  const filters::Family* family = filters::registry().find(b.filter);
  if (!family || !family->find("auto")) return false;
  return b.methods.empty() || std::find(b.methods.begin(), b.methods.end(), "auto") != b.methods.end();
}

}  // namespace

void check_before_device(const CliOptions& options) {
  bool reads_tune_table = false;  // the table $FILTERLAB_TUNE names, where an auto method may read it
  switch (options.command) {
    case Command::Run:
      reads_tune_table = check_run(options);  // the run's own shader folders and chains
      break;
    case Command::Filter: reads_tune_table = options.filter.step.method == "auto"; break;
    case Command::Bench: reads_tune_table = bench_times_auto(options.bench); break;
    case Command::Quality:  // every method of every tabled family, auto included
      reads_tune_table = true;
      break;
    case Command::Evaluate: break;
    case Command::Methods:  // lists methods, loads no shader and picks nothing
    case Command::Help:
    case Command::Version:
    case Command::ListFilters:
    case Command::Info:
    case Command::Compare:
    case Command::Report: return;
  }
  if (options.command != Command::Run) vk::check_shader_files({options.gpu.shader_dir, options.gpu.glsl_dir});
  if (reads_tune_table) filters::check_tune_file_from_environment();
}

}  // namespace filterlab::app
