// `filterlab info`: the Vulkan device facts the filters depend on, as text and as JSON.
#include "command.h"

#include "filters/auto_method.h"
#include "filters/registry.h"

#include <nlohmann/json.hpp>

#include <cstdio>

namespace filterlab::app {
namespace {

constexpr std::string_view kSynopsis =
    "  info [--json FILE]  print the Vulkan device facts the filters depend on and the auto tables in\n"
    "                      force\n";

struct InfoRequest {
  std::string device;
  bool validation = false;
  std::optional<std::filesystem::path> json;
};

int print_info(const InfoRequest& options) {
  vk::ContextOptions context_options;
  context_options.device_selector = options.device;
  context_options.validation = options.validation;
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
  // The tables `auto` would read here (filters/auto_method.h): this device's own, the built-in ones
  // nearest first, and for each family the one in force. An unreadable own table is exit 2, as in a run.
  const std::vector<filters::TableInForce> tables = filters::tables_in_order(r);
  const std::filesystem::path own = filters::tune_path(r);
  const bool own_here = !tables.empty() && !tables.front().path.empty();
  std::printf("auto table of this device   %s%s\n", own.string().c_str(),
              own_here ? (" (" + tables.front().said() + ", " + tables.front().table->date + ")").c_str()
                       : " (none yet: filterlab tune writes it)");
  for (const filters::TableInForce& t : tables)
    if (t.path.empty())
      std::printf(
          "built-in auto table         %s (driver %s): %s\n", t.table->device.c_str(),
          t.table->driver.c_str(),
          t.kind == filters::TableInForce::Kind::BuiltInThisDevice ? "this device's" : "another device's");
  nlohmann::json in_force = nlohmann::json::object();
  for (const filters::Family* f : filters::registry().families())
    if (f->find("auto")) {
      // By precision where they differ (a table tuned for one precision only).
      const std::string fp16 = f->param("precision") ? filters::table_for(*f, r, "fp16").said() : "";
      const std::string fp32 = filters::table_for(*f, r, "fp32").said();
      const std::string said = fp16.empty() || fp16 == fp32 ? fp32 : "fp16: " + fp16 + "; fp32: " + fp32;
      std::printf("%-27s %s\n", (f->name + ".auto's table").c_str(), said.c_str());
      in_force[f->name] = said;
    }
  if (ctx.ignored_validation_messages())
    std::printf(
        "validation                  %u message(s) of a layer older than the driver not counted "
        "(vk/context.h)\n",
        ctx.ignored_validation_messages());
  if (options.json) {
    nlohmann::json j = {
        {"name", r.name},
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
        {"storage_read_without_format", r.storage_read_without_format},
        {"auto_tables", {{"own", own.string()}, {"own_exists", own_here}, {"in_force", in_force}}}};
    write_text(*options.json, j.dump(2) + "\n");
  }
  return validation_exit_code(ctx);
}

Work prepare(Args& args) {
  InfoRequest request;
  while (args.next()) {
    const std::string& flag = args.flag();
    if (flag == "--device") request.device = args.value();
    else if (flag == "--validation") request.validation = true;
    else if (flag == "--json") {
      request.json = args.output_file();
    } else args.unknown();
  }
  filters::check_tune_file_from_environment();
  return [request] { return print_info(request); };
}

}  // namespace

const Command& info_command() {
  static const Command command{"info", kSynopsis, "", 0, prepare};
  return command;
}

}  // namespace filterlab::app
