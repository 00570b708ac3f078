#include "filters/auto_method.h"

#include "filters/chain.h"
#include "io/input_file.h"

#include <nlohmann/json.hpp>

#include <algorithm>
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

namespace {
// (file name, text) of renderer/filters/auto_tables/*.json, in file name order.
const std::vector<std::pair<std::string, std::string>>& builtin_table_texts() {
  static const std::vector<std::pair<std::string, std::string>> texts = {
#include "auto_tables.inc"
  };
  return texts;
}
}  // namespace

namespace {

constexpr const char* kSchema = "filterlab.tune/1";

std::string file_name_part(std::string text) {
  for (char& c : text)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-') c = '_';
  return text;
}

// The table's ranking for the step's precision and key (table_ranking).
const std::vector<std::string>* ranking_for(const TuneTable& t, const Family& family,
                                            const ParamValues& params) {
  const std::string precision = family.param("precision") ? params.choice("precision") : "fp32";
  return table_ranking(t, family.name, precision, auto_key(family, params));
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
  // The PCI IDs: which device series the table is of (tables_in_order); 0 where not recorded.
  for (auto [field, value] : {std::pair{"vendor_id", &t.vendor_id}, std::pair{"device_id", &t.device_id}})
    if (j.contains(field)) {
      if (!j[field].is_number_unsigned() || j[field].get<uint64_t>() > 0xffffffffull)
        throw bad(field, "not a whole number in 0..4294967295");
      *value = j[field].get<uint32_t>();
    }
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

std::string tune_table_text(const TuneTable& t) {
  nlohmann::json j = {{"schema", kSchema},           {"device", t.device},
                      {"driver", t.driver},          {"vendor_id", t.vendor_id},
                      {"device_id", t.device_id},    {"date", t.date},
                      {"size", {t.width, t.height}}, {"families", nlohmann::json::object()}};
  for (const auto& [family, by_precision] : t.rankings) {
    nlohmann::json entry = {{"key", t.keys.count(family) ? t.keys.at(family) : std::string()}};
    for (const auto& [precision, by_key] : by_precision)
      for (const auto& [key, methods] : by_key) entry[precision][std::to_string(key)] = methods;
    j["families"][family] = entry;
  }
  return j.dump(1) + "\n";
}

void write_tune_table(const TuneTable& t, const std::filesystem::path& path) {
  // The folders only now that there is a table to write: a refused command leaves none behind.
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path());
  io::write_file_atomically(path, tune_table_text(t));
}

int auto_key(const Family& family, const ParamValues& params) {
  if (family.tools.auto_key) return family.tools.auto_key(params);
  const Param* size = family.size_param();
  return size ? params.integer(size->name) : 0;
}

const std::vector<std::shared_ptr<const TuneTable>>& builtin_tune_tables() {
  static const std::vector<std::shared_ptr<const TuneTable>> tables = [] {
    std::vector<std::shared_ptr<const TuneTable>> out;
    for (const auto& [file, text] : builtin_table_texts()) {
      try {
        out.push_back(std::make_shared<const TuneTable>(parse_tune_table(text, file)));
      } catch (const ChainError& e) {  // a file of the source tree: the build is broken
        throw std::logic_error(std::string("built-in auto table ") + e.what());
      }
    }
    return out;
  }();
  return tables;
}

bool has_builtin_table(const std::string& family) {
  for (const auto& t : builtin_tune_tables())
    if (t->rankings.count(family)) return true;
  return false;
}

std::string TableInForce::said() const {
  switch (kind) {
    case Kind::ThisDevice: return "this device";
    case Kind::AnotherDevicesFile: return "tuned for another device: " + table->device;
    case Kind::BuiltInThisDevice: return "built-in for this device: " + table->device;
    case Kind::BuiltInAnotherDevice: return "built-in for another device: " + table->device;
    case Kind::None: break;
  }
  return "none";
}

namespace {

// The device's own table, read again only when its file changes (the window asks every frame).
std::shared_ptr<const TuneTable> own_table(const std::filesystem::path& path) {
  static std::mutex lock;
  static std::filesystem::path cached_path;
  static std::filesystem::file_time_type cached_time;
  static uintmax_t cached_size = 0;
  static std::shared_ptr<const TuneTable> cached;
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return nullptr;
  const auto time = std::filesystem::last_write_time(path, ec);
  const uintmax_t size = std::filesystem::file_size(path, ec);
  const std::lock_guard guard(lock);
  if (cached && cached_path == path && cached_time == time && cached_size == size) return cached;
  cached = std::make_shared<const TuneTable>(read_tune_table(path));
  cached_path = path, cached_time = time, cached_size = size;
  return cached;
}

// How near a built-in table's device is to this one: 3 the same device, 2 the same vendor and
// device-ID series, 1 the same vendor, 0 another vendor.
int nearness(const TuneTable& t, const vk::DeviceReport& d) {
  if (t.device == d.name) return 3;
  if (t.vendor_id == 0 || t.vendor_id != d.vendor_id) return 0;
  return t.device_id != 0 && (t.device_id >> 8) == (d.device_id >> 8) ? 2 : 1;
}

// Said once a process for each table and family: a stale table is passed over every time.
void warn_stale(const TableInForce& source, const Family& family, const std::vector<std::string>& unknown) {
  static std::mutex lock;
  static std::set<std::string> said;
  const std::string where = source.path.empty() ? source.said() : source.path.string();
  std::string names;
  for (const std::string& n : unknown) names += (names.empty() ? "" : ", ") + n;
  const std::string line =
      "filterlab: warning: the auto table " + where + " lists " + family.name +
      " methods this build does not have (" + names +
      "): a table from another version, passed over; `filterlab tune` measures a new one";
  if (const std::lock_guard guard(lock); said.insert(line).second) std::fprintf(stderr, "%s\n", line.c_str());
}

}  // namespace

std::vector<TableInForce> tables_in_order(const vk::DeviceReport& device) {
  std::vector<TableInForce> out;
  const std::filesystem::path path = tune_path(device);
  if (std::shared_ptr<const TuneTable> own = own_table(path)) {
    // A file measured elsewhere ($FILTERLAB_TUNE naming another device's) is never taken for this one's.
    const bool here = own->device == device.name;
    out.push_back(
        {here ? TableInForce::Kind::ThisDevice : TableInForce::Kind::AnotherDevicesFile, own, path});
  }
  std::vector<std::pair<int, std::shared_ptr<const TuneTable>>> built_in;
  for (const auto& t : builtin_tune_tables()) built_in.emplace_back(nearness(*t, device), t);
  std::stable_sort(built_in.begin(), built_in.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  for (const auto& [near, t] : built_in)
    out.push_back(
        {near == 3 ? TableInForce::Kind::BuiltInThisDevice : TableInForce::Kind::BuiltInAnotherDevice,
         t,
         {}});
  return out;
}

const std::vector<std::string>* table_ranking(const TuneTable& t, const std::string& family,
                                              const std::string& precision, int key) {
  const auto f = t.rankings.find(family);
  if (f == t.rankings.end() || !f->second.count(precision)) return nullptr;
  const std::map<int, std::vector<std::string>>& by_key = f->second.at(precision);
  if (by_key.empty()) return nullptr;
  const auto it = by_key.lower_bound(key);
  return it != by_key.end() ? &it->second : &by_key.rbegin()->second;
}

std::vector<std::string> unknown_methods(const TuneTable& table, const Family& family) {
  std::vector<std::string> unknown;
  const auto f = table.rankings.find(family.name);
  if (f == table.rankings.end()) return unknown;
  for (const auto& [precision, by_key] : f->second)
    for (const auto& [key, ranking] : by_key)
      for (const std::string& name : ranking)
        if ((!family.find(name) || name == "auto") &&
            std::find(unknown.begin(), unknown.end(), name) == unknown.end())
          unknown.push_back(name);
  return unknown;
}

TableInForce table_for(const Family& family, const vk::DeviceReport& device, const std::string& precision) {
  for (TableInForce& t : tables_in_order(device)) {
    const auto f = t.table->rankings.find(family.name);
    if (f != t.table->rankings.end() && f->second.count(precision) &&
        unknown_methods(*t.table, family).empty())
      return t;
  }
  return {};
}

AutoChoice choose_auto(const Family& family, const ParamValues& params, const vk::Context& device) {
  for (const TableInForce& source : tables_in_order(device.report())) {
    if (!source.table->rankings.count(family.name)) continue;
    if (const std::vector<std::string> unknown = unknown_methods(*source.table, family); !unknown.empty()) {
      warn_stale(source, family, unknown);
      continue;
    }
    if (const std::vector<std::string>* ranking = ranking_for(*source.table, family, params))
      if (const Method* m = first_served(family, *ranking, params, device)) return {m, source};
  }
  // No table serves the step: the family's methods in their registered order, the first that runs.
  std::vector<std::string> fallback;
  for (const Method& m : family.methods) fallback.push_back(m.name);
  if (const Method* m = first_served(family, fallback, params, device)) return {m, {}};
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
      "the fastest exact method for the step's precision and size on this device, from its table "
      "(filterlab tune) or the nearest device's built-in one; it says which method and which table";
  // The design cost of what the first built-in table listing the family picks (the device's own
  // pick is known on the device).
  m.cost = [&f = family](const ParamValues& params) {
    for (const auto& t : builtin_tune_tables()) {
      if (!t->rankings.count(f.name)) continue;
      if (const std::vector<std::string>* ranking = ranking_for(*t, f, params))
        for (const std::string& name : *ranking)
          if (const Method* m = f.find(name); m && m->exact && m->cost && name != "auto")
            return m->cost(params);
      break;
    }
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
    const std::string line =
        f.name + ".auto: " + choice.method->name + " (table: " + choice.table.said() + ")";
    if (const std::lock_guard lock(said_lock); said.insert(line).second)
      std::fprintf(stderr, "%s\n", line.c_str());
    return choice.method->create(env);
  };
  return m;
}

}  // namespace filterlab::filters
