#include "filters/auto_method.h"

#include "filters/chain.h"
#include "filters/registry.h"

#include <nlohmann/json.hpp>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace filterlab::filters {
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
  const int key = family.auto_key.empty() ? 0 : params.integer(family.auto_key);
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
      FilterStep step{family.name, name, params.given_pairs(), ""};
      check_support(resolve(step), device);  // unavailable here, or beyond its limits: throws
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
  try {
    const nlohmann::json j = nlohmann::json::parse(json_text);
    if (j.at("schema").get<std::string>() != kSchema)
      throw std::runtime_error("schema is not " + std::string(kSchema));
    TuneTable t;
    t.device = j.at("device").get<std::string>();
    t.driver = j.at("driver").get<std::string>();
    t.date = j.value("date", "");
    t.width = j.at("size").at(0).get<uint32_t>();
    t.height = j.at("size").at(1).get<uint32_t>();
    for (const auto& [family, entry] : j.at("families").items()) {
      t.keys[family] = entry.at("key").get<std::string>();
      for (const auto& [precision, by_key] : entry.items()) {
        if (precision == "key") continue;
        for (const auto& [key, methods] : by_key.items())
          t.rankings[family][precision][std::stoi(key)] = methods.get<std::vector<std::string>>();
      }
    }
    return t;
  } catch (const std::exception& e) {
    throw std::runtime_error(where + ": not a filterlab tune table (" + e.what() + ")");
  }
}

TuneTable read_tune_table(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path.string() + ": cannot read");
  std::stringstream text;
  text << in.rdbuf();
  return parse_tune_table(text.str(), path.string());
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
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path());
  std::ofstream out(path);
  out << j.dump(1) << "\n";
  if (!out) throw std::runtime_error(path.string() + ": cannot write");
}

AutoChoice choose_auto(const Family& family, const ParamValues& params, const vk::Context& device) {
  auto pick = [&](const TuneTable& t) -> const Method* {
    const std::vector<std::string>* ranking = ranking_for(t, family, params);
    return ranking ? first_served(family, *ranking, params, device) : nullptr;
  };
  const std::filesystem::path path = tune_path(device.report());
  if (std::filesystem::exists(path))
    if (const Method* m = pick(read_tune_table(path)))
      return {m, "tuned on " + device.report().name + " (" + path.string() + ")"};
  if (!family.auto_default.empty()) {
    const TuneTable built_in = parse_tune_table(family.auto_default, family.name + "'s built-in table");
    if (const Method* m = pick(built_in)) return {m, "built-in table, measured on " + built_in.device};
  }
  // No table serves the step: the family's default, or its first exact method, that runs here.
  std::vector<std::string> fallback = {family.default_method};
  for (const Method& m : family.methods) fallback.push_back(m.name);
  if (const Method* m = first_served(family, fallback, params, device))
    return {m, "no table: the first that runs"};
  throw ChainError(family.name + ".auto: no exact method runs this step on " + device.report().name);
}

Method auto_method(const std::string& family) {
  Method m;
  m.name = "auto";
  m.stage = Stage::Compute;
  m.exact = true;  // it runs an exact method
  m.description =
      "the fastest exact method for the step's precision and radius on this device (filterlab bench --tune), "
      "or from the family's built-in table; it says which one it picked";
  // The design cost of what the built-in table picks (the device's own pick is known on the device).
  m.cost = [family](const ParamValues& params) {
    const Family& f = *registry().find(family);
    if (f.auto_default.empty()) return MethodCost{};
    const TuneTable t = parse_tune_table(f.auto_default, family + "'s built-in table");
    if (const std::vector<std::string>* ranking = ranking_for(t, f, params))
      for (const std::string& name : *ranking)
        if (const Method* m = f.find(name); m && m->exact && m->cost && name != "auto")
          return m->cost(params);
    return MethodCost{};
  };
  m.create = [family](const FilterEnv& env) -> std::unique_ptr<Filter> {
    const Family& f = *registry().find(family);
    const AutoChoice choice = choose_auto(f, env.params, env.pass_env.vk);
    std::fprintf(stderr, "%s.auto: %s (%s)\n", family.c_str(), choice.method->name.c_str(),
                 choice.source.c_str());
    return choice.method->create(env);
  };
  return m;
}

}  // namespace filterlab::filters
