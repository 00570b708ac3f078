// filterlab: real-time image filtering methods on Vulkan, measured and checked.
#include "cli.h"
#include "commands.h"
#include "preflight.h"
#include "preset.h"
#include "window_app.h"

#include "filters/chain.h"
#include "graph/graph.h"
#include "io/input_file.h"
#include "runtime/frame_graph.h"
#include "vk/shader_compiler.h"

#include <nlohmann/json.hpp>

#include <unistd.h>
#include <cstdio>
#include <fstream>
#include <iostream>

namespace {

using namespace filterlab;

std::filesystem::path exe_dir(const char* argv0) {
  std::error_code ec;
  auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) return self.parent_path();
  return std::filesystem::absolute(argv0).parent_path();
}

int print_info(const app::CliOptions& options) {
  vk::ContextOptions context_options;
  context_options.device_selector = options.info_device;
  context_options.validation = options.info_validation;
  vk::Context ctx(context_options);
  const vk::DeviceReport& r = ctx.report();
  auto join = [](const std::vector<std::string>& v) {
    std::string s;
    for (const auto& x : v) s += (s.empty() ? "" : " ") + x;
    return s;
  };
  std::printf("device                      %s (%s)\n", r.name.c_str(), r.device_type.c_str());
  std::printf("driver                      %s %s\n", r.driver_name.c_str(), r.driver_info.c_str());
  std::printf("api version                 %s\n", vk::api_version_string(r.api_version).c_str());
  std::printf("subgroup size               %u (compute: %u to %u)\n", r.subgroup_size, r.min_subgroup_size,
              r.max_subgroup_size);
  std::printf("subgroup operations         %s\n", join(r.subgroup_operations).c_str());
  std::printf("subgroup stages             %s\n", join(r.subgroup_stages).c_str());
  std::printf("quad ops in all stages      %s\n", r.quad_operations_in_all_stages ? "yes" : "no");
  std::printf("max compute shared memory   %u bytes\n", r.max_compute_shared_memory);
  std::printf("max workgroup invocations   %u\n", r.max_compute_workgroup_invocations);
  std::printf("shader cores (SMs or CUs)   %s\n",
              r.shader_cores ? std::to_string(r.shader_cores).c_str() : "not reported");
  std::printf("timestamp period            %g ns\n", r.timestamp_period_ns);
  std::printf("timestamp valid bits        %u\n", r.timestamp_valid_bits);
  std::printf("shaderFloat16               %s\n", r.shader_float16 ? "yes" : "no");
  std::printf("shaderFloat64               %s\n", r.shader_float64 ? "yes" : "no");
  std::printf("compute shader derivatives  %s\n",
              r.compute_shader_derivatives ? r.compute_derivatives_extension.c_str() : "no");
  std::printf("storage read without format %s\n", r.storage_read_without_format ? "yes" : "no");
  if (ctx.ignored_validation_messages())
    std::printf(
        "validation                  %u message(s) of a layer older than the driver not counted "
        "(vk/context.h)\n",
        ctx.ignored_validation_messages());
  if (options.info_json) {
    nlohmann::json j = {{"name", r.name},
                        {"type", r.device_type},
                        {"driver", r.driver_name},
                        {"driver_info", r.driver_info},
                        {"api_version", vk::api_version_string(r.api_version)},
                        {"vendor_id", r.vendor_id},
                        {"device_id", r.device_id},
                        {"subgroup_size", r.subgroup_size},
                        {"min_subgroup_size", r.min_subgroup_size},
                        {"max_subgroup_size", r.max_subgroup_size},
                        {"subgroup_operations", r.subgroup_operations},
                        {"subgroup_stages", r.subgroup_stages},
                        {"quad_operations_in_all_stages", r.quad_operations_in_all_stages},
                        {"max_compute_shared_memory", r.max_compute_shared_memory},
                        {"max_compute_workgroup_invocations", r.max_compute_workgroup_invocations},
                        {"shader_cores", r.shader_cores},
                        {"timestamp_period_ns", r.timestamp_period_ns},
                        {"timestamp_valid_bits", r.timestamp_valid_bits},
                        {"shader_float16", r.shader_float16},
                        {"shader_float64", r.shader_float64},
                        {"compute_shader_derivatives", r.compute_shader_derivatives},
                        {"compute_derivatives_extension", r.compute_derivatives_extension},
                        {"storage_read_without_format", r.storage_read_without_format}};
    std::ofstream out(*options.info_json);
    out << j.dump(2) << "\n";
    if (!out) throw io::IoError("cannot write " + options.info_json->string());
  }
  return ctx.validation_messages() ? 4 : 0;
}

int run(const app::CliOptions& options) {
  runtime::RunOptions run = options.run;
  runtime::load_content(run);  // --image or --scene read before any device: a bad file is exit 2
  for (const filters::FilterStep& step : filters::parse_chain(run.chain))
    std::fputs(filters::resolve(step).derived_text().c_str(), stderr);
  if (!options.headless) return app::run_window(run, options.window);
  runtime::RunResult result = runtime::run_headless(run);
  if (run.list_images) {
    std::cout << result.image_list;
    return 0;
  }
  if (run.timings_json) runtime::write_timings_json(result, run, *run.timings_json);
  if (options.window.save_preset)
    app::save_preset(*options.window.save_preset, app::preset_of(run, options.window));
  if (run.print_table) std::cout << runtime::format_table(result, run) << std::flush;
  for (const runtime::Capture& c : run.captures)
    if (run.print_table) std::cout << "wrote " << c.image << " -> " << c.path.string() << "\n";
  if (result.validation_messages) {
    std::fprintf(stderr, "filterlab: %u validation message(s) reported\n", result.validation_messages);
    return 4;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  try {
    app::CliOptions options = app::parse_cli(args, exe_dir(argv[0]));
    app::check_before_device(options);
    switch (options.command) {
      case app::Command::Help:
        std::cout << (options.help_command.empty() ? app::usage_text()
                                                   : app::command_help(options.help_command));
        return 0;
      case app::Command::Version: std::cout << "filterlab 0.1.0\n"; return 0;
      case app::Command::ListFilters: std::cout << app::families_text(true); return 0;
      case app::Command::Info: return print_info(options);
      case app::Command::Run: return run(options);
      case app::Command::Methods: return app::list_methods(options);
      case app::Command::Filter: return app::filter_file(options);
      case app::Command::Bench: return app::run_benchmark(options);
      case app::Command::Quality: return app::quality_tables(options);
      case app::Command::Evaluate: return app::evaluate(options);
      case app::Command::Compare: return app::compare_files(options);
      case app::Command::Report: return app::write_report(options);
    }
  } catch (const app::UsageError& e) {
    std::fprintf(stderr, "filterlab: %s\n", e.what());
    return 2;
  } catch (const runtime::UnknownImageError& e) {
    std::fprintf(stderr, "filterlab: %s\n", e.what());
    return 2;
  } catch (const filters::ChainError& e) {
    std::fprintf(stderr, "filterlab: %s\n", e.what());
    return 2;
  } catch (const io::InputError& e) {  // a file given that is not what it should be
    std::fprintf(stderr, "filterlab: %s\n", e.what());
    return 2;
  } catch (const vk::ShaderCompileError& e) {  // a shader that does not compile or validate
    std::fprintf(stderr, "filterlab: %s\n", e.line().c_str());
    return 2;
  } catch (const vk::NoDeviceError& e) {
    std::fprintf(stderr, "filterlab: %s\n", e.what());
    return 3;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "filterlab: error: %s\n", e.what());
    return 1;
  }
  return 1;
}
