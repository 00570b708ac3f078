#include "bench/tune.h"

#include "filters/precision.h"
#include "filters/registry.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <set>

namespace filterlab::bench {
namespace {

using Clock = std::chrono::steady_clock;

std::vector<const filters::Method*> exact_methods(const filters::Family& family) {
  std::vector<const filters::Method*> out;
  for (const filters::Method& m : family.methods)
    if (m.exact && m.name != "auto") out.push_back(&m);
  return out;
}

// A family without a precision parameter is filed under fp32, as auto looks it up.
std::vector<std::string> precisions_of(const filters::Family& family, const std::vector<std::string>& asked) {
  if (family.param("precision")) return asked;
  return {"fp32"};
}

// The cases of one key, fastest first: those timed to the end by their medians, then the abandoned
// by their bounds.
std::vector<const TuneCase*> ranked(const std::vector<TuneCase>& cases) {
  std::vector<const TuneCase*> out;
  for (const TuneCase& c : cases) out.push_back(&c);
  std::stable_sort(out.begin(), out.end(), [](const TuneCase* a, const TuneCase* b) {
    if (a->abandoned != b->abandoned) return !a->abandoned;
    return a->us < b->us;
  });
  return out;
}

}  // namespace

std::vector<const filters::Family*> tune_families(const std::vector<std::string>& names,
                                                  const std::vector<int>& keys,
                                                  const filters::Registry& registry) {
  std::vector<const filters::Family*> out;
  std::string with_auto;
  for (const filters::Family* f : registry.families())
    if (f->find("auto")) {
      with_auto += (with_auto.empty() ? "" : " ") + f->name;
      if (names.empty()) out.push_back(f);
    }
  for (const std::string& name : names) {
    const filters::Family& f = registry.family(name);  // unknown: ChainError
    if (!f.find("auto"))
      throw filters::ChainError(
          "tune: " + name + " has no auto method, so no table to measure (families with one: " + with_auto +
          ")");
    if (std::find(out.begin(), out.end(), &f) == out.end()) out.push_back(&f);
  }
  for (const filters::Family* f : out)
    for (int key : keys) {
      const filters::Param* size = f->size_param();
      if (!size)
        throw filters::ChainError("tune: " + f->name +
                                  " has no size parameter to give keys (--filter names the others)");
      if (key < size->min || key > size->max)
        throw filters::ChainError("tune: " + f->name + "'s " + size->name + " " + std::to_string(key) +
                                  " is outside " + size->range_text());
    }
  return out;
}

std::vector<int> tune_keys(const filters::Family& family) {
  if (!family.tools.bench.tune_keys.empty()) return family.tools.bench.tune_keys;
  const filters::Param* size = family.size_param();
  if (!size) return {0};
  std::vector<int> keys;
  for (int k : {1, 2, 3, 4, 8, 16, 32})
    if (k >= size->min && k <= size->max) keys.push_back(k);
  return keys;
}

TuneResult run_tune(const TuneOptions& options, const std::function<void(const TuneProgress&)>& progress) {
  const filters::Registry& registry = options.registry ? *options.registry : filters::registry();
  const std::vector<const filters::Family*> families =
      tune_families(options.families, options.keys, registry);
  auto keys_of = [&](const filters::Family& f) { return options.keys.empty() ? tune_keys(f) : options.keys; };
  for (const std::string& p : options.precisions)
    if (p != "fp16" && p != "fp32")
      throw filters::ChainError("tune: precision " + p + " is not fp16 or fp32");

  vk::ContextOptions context_options;
  context_options.validation = options.validation;
  context_options.device_selector = options.device;
  context_options.compute_derivatives = true;
  vk::Context ctx(context_options);
  const vk::ShaderSource shaders{options.shader_dir, options.glsl_dir};

  TuneResult result;
  result.device = ctx.report();
  result.size = options.size.value_or(is_cpu_device(ctx.report()) ? kCpuTuneSize : kGpuTuneSize);
  filters::TuneTable& table = result.table;
  table.device = result.device.name;
  table.driver = result.device.driver_info;
  table.vendor_id = result.device.vendor_id;
  table.device_id = result.device.device_id;
  table.width = result.size.width;
  table.height = result.size.height;

  TuneProgress state;
  for (const filters::Family* f : families)
    state.planned +=
        precisions_of(*f, options.precisions).size() * keys_of(*f).size() * exact_methods(*f).size();
  const Clock::time_point start = Clock::now();

  ClockWatch clock;  // over the whole run: once settled, a case waits only where its probe fell
  Timing timing;
  timing.frames = options.frames;
  // What the clock watch needs to see a settled clock; a CPU device has none to wait for.
  timing.warmup = is_cpu_device(ctx.report()) ? 1 : uint32_t(kSettleFrames);
  timing.warmup_ms = 0;
  timing.wait_for_clock = true;
  timing.read_output = false;

  for (const filters::Family* family : families) {
    const filters::Param* size_param = family->size_param();
    table.keys[family->name] = size_param ? size_param->name : "none";
    for (const std::string& precision : precisions_of(*family, options.precisions)) {
      const CaseInputs inputs = case_inputs(ctx, shaders, *family, result.size, precision, 2, nullptr);
      const VkFormat format = filters::precision_format(precision);
      StagingCache staging;  // the inputs converted and staged once for all the family's cases
      std::map<int, std::vector<TuneCase>> at;  // key -> its cases

      // Times `methods` at `key`, the likely fastest first (so the rest can be abandoned early).
      auto time_key = [&](int key, const std::vector<const filters::Method*>& methods, bool refined) {
        std::vector<TuneCase>& cases = at[key];
        double best = std::numeric_limits<double>::infinity();
        for (const filters::Method* method : methods) {
          std::vector<filters::RawParam> params;
          if (size_param) params.emplace_back(size_param->name, std::to_string(key));
          TuneCase c{family->name, precision, method->name, key, refined};
          state.label = family->name + " " + precision +
                        (size_param ? " " + size_param->name + " " + std::to_string(key) : "") + " " +
                        method->name;
          try {
            const filters::ResolvedStep step =
                filters::resolve(make_step(*family, *method, params, precision), registry);
            filters::check_support(step, ctx);  // unavailable here, or beyond its limits: not ranked
            timing.abandon_over_us = std::isfinite(best) ? options.abandon_ratio * best : 0;
            const Timed t = time_filter(ctx, shaders, inputs.images, format, step, timing, clock,
                                        inputs.scene ? &*inputs.scene : nullptr, &staging);
            c.abandoned = t.abandoned;
            c.us = t.abandoned ? t.fastest_scaled_us : t.gpu_us.median;
            c.clock_settled = t.clock_settled;
            if (!c.abandoned) best = std::min(best, c.us);
            cases.push_back(c);
            result.cases.push_back(c);
          } catch (const filters::ChainError&) {  // not served here at this key: auto passes it over too
          }
          ++state.done;
          if (progress) {
            state.elapsed_s = std::chrono::duration<double>(Clock::now() - start).count();
            state.estimate_left_s = state.elapsed_s / double(state.done) *
                                    double(std::max(state.planned, state.done) - state.done);
            progress(state);
          }
        }
      };
      auto winner = [&](int key) -> std::string {
        const std::vector<const TuneCase*> r = ranked(at[key]);
        return r.empty() ? std::string() : r.front()->method;
      };
      // The methods in the order of `key`'s ranking (those not timed there after, in registered order).
      auto in_order_of = [&](int key, std::vector<const filters::Method*> methods) {
        const std::vector<const TuneCase*> r = ranked(at[key]);
        auto place = [&](const filters::Method* m) {
          for (size_t i = 0; i < r.size(); ++i)
            if (r[i]->method == m->name) return i;
          return r.size();
        };
        std::stable_sort(
            methods.begin(), methods.end(),
            [&](const filters::Method* a, const filters::Method* b) { return place(a) < place(b); });
        return methods;
      };

      const std::vector<const filters::Method*> methods = exact_methods(*family);
      const std::vector<int> keys = keys_of(*family);
      std::optional<int> previous;
      for (int key : keys) {
        time_key(key, previous ? in_order_of(*previous, methods) : methods, false);
        previous = key;
      }
      // Where the fastest changes between two keys, the radius where it does: the gap halved, with
      // the methods that finished at either end.
      if (options.refine)
        for (size_t i = 0; i + 1 < keys.size(); ++i) {
          int low = keys[i], high = keys[i + 1];
          if (winner(low).empty() || winner(high).empty() || winner(low) == winner(high)) continue;
          std::vector<const filters::Method*> finalists;
          for (const filters::Method* m : methods)
            for (int end : {low, high})
              for (const TuneCase& c : at[end])
                if (c.method == m->name && !c.abandoned &&
                    std::find(finalists.begin(), finalists.end(), m) == finalists.end())
                  finalists.push_back(m);
          while (high - low > 1) {
            const int mid = low + (high - low) / 2;
            state.planned += finalists.size();
            time_key(mid, in_order_of(low, finalists), true);
            if (winner(mid) == winner(low)) low = mid;
            else high = mid;
          }
        }
      bool any = false;
      for (const auto& [key, cases] : at) {
        if (cases.empty()) continue;  // no method serves the key here: auto looks at the next key up
        std::vector<std::string>& ranking = table.rankings[family->name][precision][key];
        for (const TuneCase* c : ranked(cases)) ranking.push_back(c->method);
        any = true;
      }
      if (!any) {
        table.rankings[family->name].erase(precision);
        result.notes.push_back(family->name + " " + precision + ": no exact method runs on " +
                               result.device.name + "; its auto keeps the next table");
      }
    }
    if (table.rankings[family->name].empty())
      table.rankings.erase(family->name), table.keys.erase(family->name);
  }
  table.date = utc_now();
  result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  result.validation_messages = ctx.validation_messages();
  return result;
}

std::vector<std::string> table_changes(const TuneResult& result, const TablesBefore& before) {
  std::vector<std::string> lines;
  for (const auto& [family_name, by_precision] : result.table.rankings) {
    const filters::Family* family = filters::registry().find(family_name);
    if (!family) continue;
    const filters::Param* size = family->size_param();
    for (const auto& [precision, by_key] : by_precision) {
      const auto in_force = before.find({family_name, precision});
      const filters::TableInForce none;
      const filters::TableInForce& was_table = in_force == before.end() ? none : in_force->second;
      for (const auto& [key, ranking] : by_key) {
        if (ranking.empty()) continue;
        const std::vector<std::string>* old =
            was_table.table ? filters::table_ranking(*was_table.table, family_name, precision, key) : nullptr;
        // The old table's first that this build has (auto would take it, where it runs).
        std::string was;
        if (old)
          for (const std::string& name : *old)
            if (family->find(name)) {
              was = name;
              break;
            }
        if (was == ranking.front()) continue;
        lines.push_back(family_name + " " + precision +
                        (size ? " " + size->name + " " + std::to_string(key) : "") + ": " + ranking.front() +
                        " (was " + (was.empty() ? "the registered order" : was) + "; " + was_table.said() +
                        ")");
      }
    }
  }
  return lines;
}

filters::TuneTable merged_table(const filters::TuneTable& result, const filters::TuneTable& earlier,
                                bool only_some_keys, size_t& kept) {
  filters::TuneTable merged = result;
  kept = 0;
  for (const auto& [family, by_precision] : earlier.rankings)
    for (const auto& [precision, by_key] : by_precision) {
      const auto f = result.rankings.find(family);
      const bool timed = f != result.rankings.end() && f->second.count(precision);
      if (timed && !only_some_keys) continue;  // measured anew, every key
      auto& into = merged.rankings[family][precision];
      for (const auto& [key, ranking] : by_key)
        if (!into.count(key)) {
          into[key] = ranking;
          ++kept;
        }
      if (!merged.keys.count(family) && earlier.keys.count(family))
        merged.keys[family] = earlier.keys.at(family);
    }
  return merged;
}

}  // namespace filterlab::bench
