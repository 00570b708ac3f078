#include "filters/auto_method.h"

#include "filters/chain.h"
#include "io/input_file.h"

#include <nlohmann/json.hpp>

#include <cctype>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <set>
#include <sstream>
#include <stdexcept>

namespace filterlab::filters {

std::string builtin_auto_table(const std::string& family) {
  static const std::map<std::string, std::string> tables = {
#include "auto_tables.inc"
  };
  const auto it = tables.find(family);
  return it == tables.end() ? std::string() : it->second;
}
namespace {

constexpr const char* kSchema = "filterlab.tune/1";

std::string file_name_part(std::string text) {
  for (char& c : text)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-') c = '_';
  return text;
}

// The table's ranking for the step's precision and key: the entry at the key, else at the nearest
// larger key, else at the largest; null where the table has none.
const std::vector<std::string>* ranking_for(const TuneTable& t, const Family& family,
                                            const ParamValues& params) {
  const std::string precision = family.param("precision") ? params.choice("precision") : "fp32";
  const int key = auto_key(family, params);
  const auto f = t.rankings.find(family.name);
  if (f == t.rankings.end() || !f->second.count(precision)) return nullptr;
  const std::map<int, std::vector<std::string>>& by_key = f->second.at(precision);
  if (by_key.empty()) return nullptr;
  const auto it = by_key.lower_bound(key);
  return it != by_key.end() ? &it->second : &by_key.rbegin()->second;
}

// The first method of the ranking that is exact, takes the step's parameters and serves them here
// (available, and within its limits: a radius beyond what its shared memory or subgroups hold is not).
const Method* first_served(const Family& family, const std::vector<std::string>& ranking,
                           const ParamValues& params, const vk::Context& device) {
  for (const std::string& name : ranking) {
    const Method* m = family.find(name);
    if (!m || !m->exact || name == "auto") continue;
    try {
      const ResolvedStep step{&family, m, parse_params(family, *m, params.given_pairs()), ""};
      check_support(step, device);  // unavailable here, or beyond its limits: throws
      return m;
    } catch (const ChainError&) {  // a parameter it does not take, or not served here
    }
  }
  return nullptr;
}

}  // namespace

std::filesystem::path tune_path(const vk::DeviceReport& device) {
  if (const char* file = std::getenv("FILTERLAB_TUNE"); file && *file) return file;
  std::filesystem::path config;
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg) config = xdg;
  else if (const char* home = std::getenv("HOME"); home && *home)
    config = std::filesystem::path(home) / ".config";
  else config = ".";
  return config / "filterlab" / "tune" / (file_name_part(device.name + "_" + device.driver_info) + ".json");
}

TuneTable parse_tune_table(const std::string& json_text, const std::string& where) {
  using nlohmann::json;
  // Every problem names the field, so a hand-edited table says where it went wrong.
  auto bad = [&](const std::string& field, const std::string& problem) -> ChainError {
    return ChainError(where + ": not a filterlab tune table (" + field + ": " + problem + ")");
  };
  if (const std::string deep = io::json_too_deep(json_text); !deep.empty()) throw bad("JSON", deep);
  json j;
  try {
    j = json::parse(json_text);
  } catch (const json::parse_error& e) {
    throw bad("JSON", "syntax error at byte " + std::to_string(e.byte));
  } catch (const json::exception&) {  // a number beyond double's range (1e999): out_of_range
    throw bad("JSON", "a number out of range");
  }
  auto member = [&](const json& object, const std::string& key, const std::string& field) -> const json& {
    if (!object.is_object()) throw bad(field, "not an object");
    const auto it = object.find(key);
    if (it == object.end()) throw bad(field + (field.empty() ? "" : ".") + key, "missing");
    return *it;
  };
  auto text = [&](const json& value, const std::string& field) {
    if (!value.is_string()) throw bad(field, "not a string");
    return value.get<std::string>();
  };
  if (!j.is_object()) throw bad("top level", "not an object");
  if (text(member(j, "schema", ""), "schema") != kSchema) throw bad("schema", std::string("not ") + kSchema);
  TuneTable t;
  t.device = text(member(j, "device", ""), "device");
  t.driver = text(member(j, "driver", ""), "driver");
  if (j.contains("date")) t.date = text(j["date"], "date");
  const json& size = member(j, "size", "");
  auto side = [&](size_t i) {
    // The size it was measured at: information, 0 where unknown.
    if (!size.is_array() || size.size() != 2 || !size[i].is_number_unsigned() ||
        size[i].get<uint64_t>() > 65536)
      throw bad("size", "not [width, height] in 0..65536");
    return size[i].get<uint32_t>();
  };
  t.width = side(0);
  t.height = side(1);
  const json& families = member(j, "families", "");
  if (!families.is_object()) throw bad("families", "not an object");
  for (const auto& [family, entry] : families.items()) {
    const std::string at = "families." + family;
    t.keys[family] = text(member(entry, "key", at), at + ".key");
    for (const auto& [precision, by_key] : entry.items()) {
      if (precision == "key") continue;
      const std::string field = at + "." + precision;
      if (precision != "fp16" && precision != "fp32") throw bad(field, "not fp16 or fp32");
      if (!by_key.is_object()) throw bad(field, "not an object");
      for (const auto& [key, methods] : by_key.items()) {
        int value = 0;
        const auto [end, ec] = std::from_chars(key.data(), key.data() + key.size(), value);
        if (key.empty() || ec != std::errc() || end != key.data() + key.size() || value < 0)
          throw bad(field + "." + key, "the key is not a whole number");
        if (!methods.is_array()) throw bad(field + "." + key, "not a list of method names");
        std::vector<std::string>& ranking = t.rankings[family][precision][value];
        for (const json& name : methods) ranking.push_back(text(name, field + "." + key + "[]"));
      }
    }
  }
  return t;
}

TuneTable read_tune_table(const std::filesystem::path& path) {
  return parse_tune_table(io::read_input_file(path, io::kMaxJsonFileBytes), path.string());
}

void check_tune_file_from_environment() {
  const char* file = std::getenv("FILTERLAB_TUNE");
  if (!file || !*file) return;
  // A table that is not there yet is one `bench --tune` will write; anything else there must be one.
  std::error_code ec;
  if (!std::filesystem::exists(file, ec)) return;  // a dangling link too: nothing there yet
  read_tune_table(file);
}

void write_tune_table(const TuneTable& t, const std::filesystem::path& path) {
  nlohmann::json j = {{"schema", kSchema},           {"device", t.device},
                      {"driver", t.driver},          {"date", t.date},
                      {"size", {t.width, t.height}}, {"families", nlohmann::json::object()}};
  for (const auto& [family, by_precision] : t.rankings) {
    nlohmann::json entry = {{"key", t.keys.count(family) ? t.keys.at(family) : std::string()}};
    for (const auto& [precision, by_key] : by_precision)
      for (const auto& [key, methods] : by_key) entry[precision][std::to_string(key)] = methods;
    j["families"][family] = entry;
  }
  // The folders only now that there is a table to write: a refused command leaves none behind.
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path());
  io::write_file_atomically(path, j.dump(1) + "\n");
}

int auto_key(const Family& family, const ParamValues& params) {
  if (family.tools.auto_key) return family.tools.auto_key(params);
  const Param* size = family.size_param();
  return size ? params.integer(size->name) : 0;
}

AutoChoice choose_auto(const Family& family, const ParamValues& params, const vk::Context& device) {
  auto pick = [&](const TuneTable& t) -> const Method* {
    const std::vector<std::string>* ranking = ranking_for(t, family, params);
    return ranking ? first_served(family, *ranking, params, device) : nullptr;
  };
  const std::filesystem::path path = tune_path(device.report());
  std::error_code ec;
  if (std::filesystem::exists(path, ec))
    if (const Method* m = pick(read_tune_table(path)))
      return {m, "tuned on " + device.report().name + " (" + path.string() + ")"};
  if (!family.tools.auto_table.empty()) {
    const TuneTable built_in = parse_tune_table(family.tools.auto_table, family.name + "'s built-in table");
    if (const Method* m = pick(built_in)) return {m, "built-in table, measured on " + built_in.device};
  }
  // No table serves the step: the family's default, or its first exact method, that runs here.
  std::vector<std::string> fallback = {family.default_method};
  for (const Method& m : family.methods) fallback.push_back(m.name);
  if (const Method* m = first_served(family, fallback, params, device))
    return {m, "no table: the first that runs"};
  // Say how far the family reaches here: the largest size an exact method serves on this device.
  const Param* size = family.size_param();
  std::optional<int> largest;
  std::string largest_by;
  for (const Method& m : family.methods) {
    if (!m.exact || m.name == "auto" || !size) continue;
    try {
      const ResolvedStep step{&family, &m, parse_params(family, m, params.given_pairs()), ""};
      const Support s = device_support(step, device);
      const int reach = s.max_size.value_or(int(size->max));
      if (s.available() && (!largest || reach > *largest)) {
        largest = reach;
        largest_by = m.name;
      }
    } catch (const ChainError&) {  // a parameter it does not take
    }
  }
  std::string why = family.name + ".auto: no exact method runs this step on " + device.report().name;
  if (largest && size && params.integer(size->name) > *largest)
    why += ": " + size->name + " " + std::to_string(params.integer(size->name)) +
           " is past the largest an exact method serves here, " + std::to_string(*largest) + " (" +
           largest_by + "; each method's limit: filterlab methods)";
  throw ChainError(why);
}

Method auto_method(const Family& family) {
  Method m;
  m.name = "auto";
  m.stage = Stage::Compute;
  m.exact = true;  // it runs an exact method
  m.description =
      "the fastest exact method for the step's precision and size on this device (filterlab bench --tune), "
      "or from the family's built-in table; it says which one it picked";
  // The design cost of what the built-in table picks (the device's own pick is known on the device).
  m.cost = [&f = family](const ParamValues& params) {
    if (f.tools.auto_table.empty()) return MethodCost{};
    const TuneTable t = parse_tune_table(f.tools.auto_table, f.name + "'s built-in table");
    if (const std::vector<std::string>* ranking = ranking_for(t, f, params))
      for (const std::string& name : *ranking)
        if (const Method* m = f.find(name); m && m->exact && m->cost && name != "auto")
          return m->cost(params);
    return MethodCost{};
  };
  m.runs = [&f = family](const ParamValues& params, const vk::Context& device) {
    return choose_auto(f, params, device).method;
  };
  m.create = [&f = family](const FilterEnv& env) -> std::unique_ptr<Filter> {
    const AutoChoice choice = choose_auto(f, env.params, env.pass_env.vk);
    // Said once a process for each choice: evaluate and bench build the same step for many
    // sequences and cases (evaluate said one taa step's choice 27 times).
    static std::mutex said_lock;
    static std::set<std::string> said;
    const std::string line = f.name + ".auto: " + choice.method->name + " (" + choice.source + ")";
    if (const std::lock_guard lock(said_lock); said.insert(line).second)
      std::fprintf(stderr, "%s\n", line.c_str());
    return choice.method->create(env);
  };
  return m;
}

}  // namespace filterlab::filters
