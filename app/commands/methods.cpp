// `filterlab methods`: every method of every family on this device: stage, exactness, availability,
// limits, cost and what it does, as a table or JSON.
#include "command.h"

#include "filters/device_checks.h"
#include "filters/registry.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <iostream>

namespace filterlab::app {
namespace {

constexpr std::string_view kSynopsis =
    R"(  methods [--json]    every filter method: stage, exactness, availability on this device, limits, cost,
                      its family's default marked, and what it does
)";

struct MethodsRequest {
  bool json = false;
  DeviceOptions gpu;
};

const std::vector<int> kCostRadii = {1, 2, 3, 4, 8, 16, 32};

// The limit of a support, as text: "<size parameter> 1..16" (the lower end from the schema).
std::string limits_text(const filters::Family& family, const filters::Support& support) {
  const filters::Param* size = family.size_param();
  if (!size || !support.max_size) return "-";
  return size->name + " " + std::to_string(int(size->min)) + ".." + std::to_string(*support.max_size);
}

int list_methods(const MethodsRequest& options) {
  vk::Context ctx = make_context(options.gpu);
  using nlohmann::json;
  json list = json::array();
  if (!options.json)
    std::printf("%-40s %-9s %-6s %-14s %s\n", "method", "stage", "exact", "limits here", "availability");
  for (const filters::Family* family : filters::registry().families())
    for (const filters::Method& m : family->methods) {
      const filters::ResolvedStep fp16 = default_step(*family, m, "fp16"),
                                  fp32 = default_step(*family, m, "fp32");
      const filters::Support s16 = filters::device_support(fp16, ctx),
                             s32 = filters::device_support(fp32, ctx);
      const filters::Param* size = family->size_param();
      json limits = json::object();
      if (size && s16.max_size) limits[size->name] = *s16.max_size;
      json entry = {{"filter", family->name},
                    {"method", m.name},
                    {"stage", filters::stage_name(m.stage)},
                    {"exact", m.exact},
                    {"passes", m.passes},
                    {"available", s16.available()},
                    {"default", m.name == family->default_method},
                    {"limits", limits},
                    {"description", m.description}};
      if (size) {
        // The size limit also as its own fields ("min_radius", "max_radius", "max_radius_fp32"):
        // what a table by size needs.
        const auto largest = [&](const filters::Support& s) {
          return s.available() ? s.max_size.value_or(int(size->max)) : 0;
        };
        entry["min_" + size->name] = int(size->min);
        entry["max_" + size->name] = largest(s16);
        entry["max_" + size->name + "_fp32"] = largest(s32);
        json cost = json::object();
        for (int r : kCostRadii) {
          if (r < size->min || r > size->max) continue;
          filters::FilterStep step{family->name, m.name, {{size->name, std::to_string(r)}}, ""};
          const filters::MethodCost c = m.cost(filters::resolve(step).params);
          cost[std::to_string(r)] = {
              {"fetches", c.fetches}, {"shared_reads", c.shared_reads}, {"shared_writes", c.shared_writes}};
        }
        entry["cost_per_pixel_by_" + size->name] = cost;
      }
      entry["fetches_per_pixel"] = m.cost(fp16.params).fetches;  // every method has a cost (schema test)
      json takes = json::array();
      for (const filters::Param& p : family->params)
        if (p.takes(m.name)) takes.push_back(p.name);
      entry["params"] = takes;
      if (!s16.available()) entry["reason"] = s16.reason;
      if (!s32.available()) entry["reason_fp32"] = s32.reason;
      list.push_back(entry);
      if (!options.json) {
        const char* availability = !s16.available()  ? s16.reason.c_str()
                                   : s32.available() ? "available"
                                                     : "available for fp16 images only";
        const std::string name =
            family->name + "." + m.name + (m.name == family->default_method ? " (default)" : "");
        std::printf("%-40s %-9s %-6s %-14s %s\n    %s\n", name.c_str(), filters::stage_name(m.stage),
                    m.exact ? "yes" : "no", s16.available() ? limits_text(*family, s16).c_str() : "-",
                    availability, m.description.c_str());
      }
    }
  if (options.json) {
    json out = {{"device", ctx.report().name}, {"methods", list}};
    std::cout << out.dump(2) << "\n";
  }
  return validation_exit_code(ctx);
}
Work prepare(Args& args) {
  MethodsRequest request{false, default_device_options(args)};
  while (args.next())
    if (args.flag() == "--json") request.json = true;
    else if (!parse_device_flag(args, request.gpu)) args.unknown();
  // Lists methods: loads no shader and picks nothing, so no folder or table is read.
  return [request] { return list_methods(request); };
}

}  // namespace

const Command& methods_command() {
  static const Command command{"methods", kSynopsis, "", Command::kDeviceOptions, prepare};
  return command;
}

}  // namespace filterlab::app
