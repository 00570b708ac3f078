#pragma once
// `auto`: a method like any other (`<family>.auto`, `--method auto`, the panel's list) that runs the
// fastest exact method of its family for the step's precision and size parameter (Param::is_size,
// a window's radius) on this device, from the table in force, and says which table that is:
//
//   1. this device's own table, written by `filterlab tune`;
//   2. else the built-in table of the nearest device lent to the project (renderer/filters/
//      auto_tables/, `tune`'s files as written, embedded at build time): one of this very device,
//      else of the same vendor and device-ID series (the PCI ID's upper byte: a chip's products, as
//      the H100's 0x2330 and the H200's 0x2335), else of the same vendor, else any;
//   3. else none: the family's methods in their registered order, the first exact one that runs.
//
// A table that does not list the family, or whose ranking no method here serves, passes the step to
// the next. A table naming a method this build does not have (a rename since it was measured) is
// stale: a warning, and the next. The registry (filters/registry.h) gives `auto` to every family a
// built-in table lists, as its default; no family builds it.
//
// The tables (JSON, schema filterlab.tune/1, schemas/filterlab.tune.schema.json): one file per device
// and driver, at
//   $FILTERLAB_TUNE if set, else $XDG_CONFIG_HOME/filterlab/tune/<device>_<driver>.json
//   (XDG_CONFIG_HOME defaults to ~/.config)
//   {"schema": "filterlab.tune/1", "device": ..., "driver": ..., "vendor_id": ..., "device_id": ...,
//    "size": [w, h], "date": ...,
//    "families": {"<family>": {"key": "<its size parameter>", "fp16": {"1": ["comp.a", ...], ...}}}}
// each list the exact methods fastest first, as measured at that key and precision.
#include "filters/family.h"
#include "vk/context.h"

#include <filesystem>
#include <map>
#include <memory>
#include <optional>

namespace filterlab::filters {

struct TuneTable {
  std::string device, driver, date;
  uint32_t vendor_id = 0, device_id = 0;  // 0: not recorded
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
// nothing when it is unset or names nothing yet (a table `tune` will write).
void check_tune_file_from_environment();
void write_tune_table(const TuneTable& table, const std::filesystem::path& path);
// The JSON text write_tune_table writes.
std::string tune_table_text(const TuneTable& table);

// The built-in tables (renderer/filters/auto_tables/*.json), parsed once, in file name order.
const std::vector<std::shared_ptr<const TuneTable>>& builtin_tune_tables();

// A table as this device sees it, and the words `auto` says it in.
struct TableInForce {
  enum class Kind { ThisDevice, AnotherDevicesFile, BuiltInThisDevice, BuiltInAnotherDevice, None };
  Kind kind = Kind::None;
  std::shared_ptr<const TuneTable> table;  // none for Kind::None
  std::filesystem::path path;              // the file, for the first two kinds
  // "this device", "tuned for another device: NAME", "built-in for this device: NAME",
  // "built-in for another device: NAME", "none".
  std::string said() const;
};
// The tables auto consults on `device`, in order: its own (when the file exists; a corrupt one
// throws as read_tune_table does), then the built-in ones, nearest first. The own table is read
// again only when its file changes.
std::vector<TableInForce> tables_in_order(const vk::DeviceReport& device);

// What auto picks for a step of `family` with these parameters on `device`, and from which table.
struct AutoChoice {
  const Method* method = nullptr;
  TableInForce table;  // Kind::None: the family's registered order
};
AutoChoice choose_auto(const Family& family, const ParamValues& params, const vk::Context& device);
// The table a step of `family` at `precision` would read first on `device` (the first that lists
// the family at that precision and is not stale).
TableInForce table_for(const Family& family, const vk::DeviceReport& device, const std::string& precision);
// The value a step's ranking is looked up by (FamilyTools::auto_key; the size parameter; or 0), which
// `tune` also files its timings under.
int auto_key(const Family& family, const ParamValues& params);
// The ranking auto reads in `table` for `family` at `precision` and `key`: the entry at the key,
// else at the nearest larger key, else at the largest; none where the table has none.
const std::vector<std::string>* table_ranking(const TuneTable& table, const std::string& family,
                                              const std::string& precision, int key);
// The methods a table lists for `family` that the family does not have (a stale table), or none.
std::vector<std::string> unknown_methods(const TuneTable& table, const Family& family);

// Whether a built-in table lists `family` (the registry gives it `auto` then).
bool has_builtin_table(const std::string& family);

// The method `auto` of `family` (the registry's copy: the method reads the family it is part of, so
// `family` must outlive it).
Method auto_method(const Family& family);

}  // namespace filterlab::filters
