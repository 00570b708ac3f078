#pragma once
// `auto`: a method like any other (`<family>.auto`, `--method auto`, the panel's list) that runs the
// fastest exact method of its family for the step's precision and size parameter (Param::is_size,
// a window's radius) on this device, from a table `filterlab bench --tune` measured on it, or from
// the family's built-in table where the device has none; it says which one it picked. The registry
// (filters/registry.h) gives it to every family with a built-in table, as its default; no family
// builds it.
//
// The tables (JSON, schema filterlab.tune/1): one file per device and driver, at
//   $FILTERLAB_TUNE if set, else $XDG_CONFIG_HOME/filterlab/tune/<device>_<driver>.json
//   (XDG_CONFIG_HOME defaults to ~/.config)
//   {"schema": "filterlab.tune/1", "device": ..., "driver": ..., "size": [w, h], "date": ...,
//    "families": {"<family>": {"key": "<its size parameter>", "fp16": {"1": ["comp.a", ...], ...}}}}
// each list the exact methods fastest first, as measured at that key and precision.
#include "filters/family.h"
#include "vk/context.h"

#include <filesystem>
#include <map>
#include <optional>

namespace filterlab::filters {

struct TuneTable {
  std::string device, driver, date;
  uint32_t width = 0, height = 0;
  // family -> precision -> key value -> methods, fastest first
  std::map<std::string, std::map<std::string, std::map<int, std::vector<std::string>>>> rankings;
  std::map<std::string, std::string> keys;  // family -> its key parameter
};

// Where this device's table lives (FILTERLAB_TUNE overrides).
std::filesystem::path tune_path(const vk::DeviceReport& device);
// Throws ChainError (bad input: the file and the field) for a file that is not a tune table, and
// io::InputError for one that is not a regular file of sane size.
TuneTable read_tune_table(const std::filesystem::path& path);
TuneTable parse_tune_table(const std::string& json_text, const std::string& where);
// The table $FILTERLAB_TUNE names, read and checked before any device is opened (the same errors);
// nothing when it is unset or names nothing yet (a table `bench --tune` will write).
void check_tune_file_from_environment();
void write_tune_table(const TuneTable& table, const std::filesystem::path& path);

// What auto picks for a step of `family` with these parameters on `device`, and from which table.
struct AutoChoice {
  const Method* method = nullptr;
  std::string source;  // "tuned on <device> (<path>)" or "built-in table (<device>)"
};
AutoChoice choose_auto(const Family& family, const ParamValues& params, const vk::Context& device);
// The value a step's ranking is looked up by (FamilyTools::auto_key; the size parameter; or 0), which
// `bench --tune` also files its timings under.
int auto_key(const Family& family, const ParamValues& params);

// The family's built-in table (renderer/filters/<family>/auto_table.json, embedded at build time), or
// an empty text where it has none.
std::string builtin_auto_table(const std::string& family);

// The method `auto` of `family` (the registry's copy: the method reads the family it is part of, so
// `family` must outlive it).
Method auto_method(const Family& family);

}  // namespace filterlab::filters
