// Unit tier, from the registry: every family's parameter schema refuses bad values with a
// ChainError (exit 2) that names the family and the parameter, before any device exists: unknown,
// duplicate and misplaced keys, values out of range, non-finite and malformed numbers, choices
// that are not offered and regions that do not parse. Every family and parameter is covered from
// the moment it is registered.
#include "filters/auto_method.h"
#include "filters/chain.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

using namespace filterlab;

namespace {

std::string text(double v) {
  std::ostringstream out;
  out << v;
  return out.str();
}

// The first method that takes `p`.
const filters::Method& taker(const filters::Family& family, const filters::Param& p) {
  for (const filters::Method& m : family.methods)
    if (p.takes(m.name)) return m;
  throw std::logic_error(p.name + " is taken by no method");
}

// A step of `family` with one parameter, plus those the family needs beside it (a region's partner).
filters::FilterStep step(const filters::Family& family, const filters::Param& p, const std::string& value) {
  filters::FilterStep s{family.name, taker(family, p).name, {{p.name, value}}, ""};
  s.text = filters::step_spec(s);
  return s;
}

void expect_refused(const filters::FilterStep& s, const std::string& names) {
  try {
    filters::resolve(s);
    ADD_FAILURE() << filters::step_spec(s) << " was accepted";
  } catch (const filters::ChainError& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.rfind(s.filter + ": ", 0), 0u) << "names no family: " << message;
    EXPECT_NE(message.find(names), std::string::npos) << message;
  }
}

// Values the schema must refuse for `p`.
std::vector<std::string> bad_values(const filters::Param& p) {
  switch (p.type) {
    case filters::ParamType::Integer:
      return {text(p.min - 1), text(p.max + 1), "1.5", "abc", "", " 3", "3x", "nan"};
    case filters::ParamType::Number:
      return {
          text(p.min - (p.max - p.min)), text(p.max * 2 + 1), "nan", "inf", "-inf", "1e400", "abc", "", "2 "};
    case filters::ParamType::Choice: return {"bogus", "", p.choices.front() + "x"};
    case filters::ParamType::Region: return {"1,2,3", "0,0,0,5", "-1,0,4,4", "4x4+1", "abc", ""};
  }
  return {};
}

}  // namespace

TEST(Schema, EveryFamilyRefusesBadValuesNamingTheFamilyAndTheParameter) {
  size_t checked = 0;
  for (const filters::Family* family : filters::registry().families()) {
    ASSERT_FALSE(family->methods.empty()) << family->name;
    for (const filters::Param& p : family->params) {
      for (const std::string& value : bad_values(p)) {
        expect_refused(step(*family, p, value), p.name + " wants");
        ++checked;
      }
      // Given twice (a value it would take once).
      const std::string valid = p.type == filters::ParamType::Region   ? "0,0,1,1"
                                : p.type == filters::ParamType::Choice ? p.choices.front()
                                                                       : text(p.min);
      filters::FilterStep twice = step(*family, p, valid);
      twice.params.push_back(twice.params.front());
      expect_refused(twice, p.name + " is given twice");
      // Given to a method that does not take it.
      for (const filters::Method& m : family->methods)
        if (!p.takes(m.name)) {
          filters::FilterStep misplaced = step(*family, p, "x");
          misplaced.method = m.name;
          expect_refused(misplaced, p.name + " is for ");
          break;
        }
    }
    filters::FilterStep unknown{family->name, family->methods.front().name, {{"no_such_parameter", "1"}}, ""};
    expect_refused(unknown, "unknown parameter 'no_such_parameter'");
    filters::FilterStep method{family->name, "no.such_method", {}, ""};
    try {
      filters::resolve(method);
      ADD_FAILURE() << family->name << " accepted an unknown method";
    } catch (const filters::ChainError& e) {
      EXPECT_NE(std::string(e.what()).find("unknown method 'no.such_method' for " + family->name),
                std::string::npos)
          << e.what();
    }
  }
  EXPECT_GT(checked, 20u);
}

TEST(Schema, EveryParameterIsDocumentedAndItsDefaultIsAccepted) {
  for (const filters::Family* family : filters::registry().families()) {
    EXPECT_FALSE(family->description.empty()) << family->name;
    ASSERT_TRUE(family->reference) << family->name << " has no CPU reference";
    EXPECT_FALSE(family->test_points.empty()) << family->name << " gives the reference test no point";
    EXPECT_TRUE(std::isfinite(family->tolerance_fp32) && family->tolerance_fp32 >= 0) << family->name;
    EXPECT_TRUE(std::isfinite(family->tolerance_fp16) && family->tolerance_fp16 >= 0) << family->name;
    for (const filters::Param& p : family->params) {
      EXPECT_FALSE(p.help.empty()) << family->name << "." << p.name;
      if (p.type == filters::ParamType::Region) continue;
      EXPECT_TRUE(!p.fallback.empty() || p.derived) << family->name << "." << p.name << " has no default";
      if (p.type == filters::ParamType::Choice) {
        EXPECT_NE(std::find(p.choices.begin(), p.choices.end(), p.fallback), p.choices.end()) << p.name;
      }
    }
    // Every method resolves at the family's defaults and at every test point.
    for (const filters::Method& m : family->methods) {
      EXPECT_FALSE(m.description.empty()) << m.name;
      EXPECT_TRUE(m.create && m.cost) << m.name;
      EXPECT_NO_THROW(filters::resolve({family->name, m.name, {}, ""})) << m.name;
      for (const std::string& point : family->test_points)
        EXPECT_NO_THROW(filters::resolve(
            filters::parse_chain(family->name + "." + m.name + (point.empty() ? "" : ":" + point)).at(0)))
            << m.name << " " << point;
    }
    if (!family->default_method.empty()) {
      EXPECT_NE(family->find(family->default_method), nullptr) << family->name;
    }
    // A family with auto defaults to it: the fastest exact method here (issue #37).
    if (family->find("auto")) {
      EXPECT_EQ(family->default_method, "auto") << family->name;
    }
    // At most one size parameter, a whole number (shared code reads it as ParamValues::size()); a
    // family with `auto` is keyed on it.
    int sizes = 0;
    for (const filters::Param& p : family->params)
      if (p.is_size) {
        ++sizes;
        EXPECT_EQ(p.type, filters::ParamType::Integer) << family->name << "." << p.name;
      }
    EXPECT_LE(sizes, 1) << family->name;
    // Every family with more than one exact method has auto (issue #36), but the memory floor,
    // whose methods are the floor's candidates, not ways to one filter.
    size_t exact = 0;
    for (const filters::Method& m : family->methods) exact += m.exact && m.name != "auto";
    if (exact > 1 && !family->tools.bench.memory_floor) {
      EXPECT_NE(family->find("auto"), nullptr) << family->name << " has " << exact << " exact methods";
    }
    // Every built-in table names only exact methods of the family (a typo there would never be
    // picked, and a stale table is passed over).
    for (const auto& t : filters::builtin_tune_tables()) {
      if (!t->rankings.count(family->name)) continue;
      EXPECT_TRUE(filters::unknown_methods(*t, *family).empty()) << t->device << ": " << family->name;
      for (const auto& [precision, by_key] : t->rankings.at(family->name))
        for (const auto& [key, ranking] : by_key)
          for (const std::string& name : ranking) {
            if (const filters::Method* m = family->find(name)) {
              EXPECT_TRUE(m->exact && name != "auto") << t->device << ": " << family->name << ": " << name;
            }
          }
    }
    // `quality` tables a family by its size against one of its methods.
    if (!family->tools.quality.baseline.empty()) {
      EXPECT_NE(family->size_param(), nullptr) << family->name;
      EXPECT_NE(family->find(family->tools.quality.baseline), nullptr) << family->name;
    }
  }
}

TEST(Schema, DerivedQuantitiesThatBreakAreRefusedNamingTheParameter) {
  // The Gaussian's sigma at the bottom of its range is still a usable kernel; the check that
  // guards the derived weights refuses what would be NaN (a Gaussian of sigma 0) by name.
  EXPECT_NO_THROW(filters::resolve(filters::parse_chain("gaussian.frag.full2d:radius=32:sigma=0.05").at(0)));
  const filters::Family& gaussian = *filters::registry().find("gaussian");
  filters::ParamValues values;
  values.set("radius", 3, true);
  values.set("sigma", 1e-200, true);
  values.set("kernel", std::string("gaussian"), false);
  values.set("precision", std::string("fp16"), false);
  values.set("src_roi", std::monostate{}, false);
  values.set("dst_roi", std::monostate{}, false);
  values.set("outside", std::string("copy"), false);
  try {
    gaussian.check(values);
    ADD_FAILURE() << "sigma 1e-200 passed the family's check";
  } catch (const filters::ChainError& e) {
    EXPECT_NE(std::string(e.what()).find("gaussian: sigma 1e-200"), std::string::npos) << e.what();
  }
}

// Every value a schema admits resolves, derived defaults included: the ends of each range, for every
// method that takes the parameter (device limits come later, from the methods).
TEST(Schema, TheEndsOfEveryRangeResolve) {
  for (const filters::Family* family : filters::registry().families())
    for (const filters::Param& p : family->params) {
      if (p.type != filters::ParamType::Integer && p.type != filters::ParamType::Number) continue;
      for (const filters::Method& m : family->methods) {
        if (!p.takes(m.name)) continue;
        for (double end : {p.min, p.max}) {
          std::ostringstream value;
          value << end;
          const filters::FilterStep step{family->name, m.name, {{p.name, value.str()}}, ""};
          EXPECT_NO_THROW(filters::resolve(step))
              << family->name << "." << m.name << " " << p.name << "=" << value.str();
        }
      }
    }
}

TEST(Schema, ExactlyOneFamilyIsTheMemoryFloorAndItsMethodsAreExact) {
  // bench divides every time by the fastest of the floor family's methods: a floor that changed
  // the image, or two families each claiming to be the floor, would make every ratio meaningless.
  int floors = 0;
  for (const filters::Family* family : filters::registry().families())
    floors += family->tools.bench.memory_floor;
  EXPECT_EQ(floors, 1);
  const filters::Family& floor = filters::registry().memory_floor();
  EXPECT_FALSE(floor.methods.empty());
  for (const filters::Method& m : floor.methods) EXPECT_TRUE(m.exact) << floor.name << "." << m.name;
  EXPECT_THROW(filters::Registry({}).memory_floor(), std::logic_error);
}

// A mistyped family, method or parameter is refused with the nearest name offered, for every
// registered one: one letter dropped from each name still finds it.
TEST(Schema, MistypedNamesAreRefusedWithTheNearestNameOffered) {
  auto message = [](const filters::FilterStep& s) -> std::string {
    try {
      filters::resolve(s);
    } catch (const filters::ChainError& e) {
      return e.what();
    }
    return "(accepted)";
  };
  auto typo = [](const std::string& name) { return name.substr(0, name.size() - 2) + name.back(); };
  for (const filters::Family* family : filters::registry().families()) {
    if (family->name.size() >= 4) {  // "ta" is as near to a dozen words as to taa
      EXPECT_NE(message({typo(family->name), "", {}, ""}).find("did you mean " + family->name + "?"),
                std::string::npos)
          << message({typo(family->name), "", {}, ""});
    }
    for (const filters::Method& m : family->methods) {
      const std::string got = message({family->name, typo(m.name), {}, ""});
      // Another method may be as near (comp.fetch_x2 and comp.fetch_x4): a suggestion is enough.
      EXPECT_NE(got.find("did you mean "), std::string::npos) << got;
    }
    for (const filters::Param& p : family->params) {
      if (p.name.size() < 5) continue;  // too short for a typo to be told from another word
      const std::string got = message({family->name, taker(*family, p).name, {{typo(p.name), "1"}}, ""});
      EXPECT_NE(got.find("did you mean " + p.name + "?"), std::string::npos) << got;
    }
  }
  EXPECT_EQ(message({"zz", "", {}, ""}).find("did you mean"), std::string::npos);
}

// The README's families table says each family's default as the registry has it (it said
// comp.fetch_x4 for copy where the registry had comp.fetch_x2; issue #54): one default everywhere.
TEST(Schema, TheReadmesFamiliesTableNamesEachDefault) {
  std::ifstream in(std::string(FILTERLAB_SOURCE_DIR) + "/README.md");
  std::map<std::string, std::string> said;  // family -> the first `name` of its default column
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("| [", 0) != 0) continue;
    const std::string family = line.substr(3, line.find(']') - 3);
    std::vector<std::string> cells;
    for (size_t at = 1, next; (next = line.find(" | ", at)) != std::string::npos; at = next + 3)
      cells.push_back(line.substr(at, next - at));
    ASSERT_GE(cells.size(), 3u) << line;
    const std::string& cell = cells[2];
    const size_t open = cell.find('`'), close = cell.find('`', open + 1);
    ASSERT_NE(close, std::string::npos) << line;
    said[family] = cell.substr(open + 1, close - open - 1);
  }
  for (const filters::Family* family : filters::registry().families())
    EXPECT_EQ(said[family->name], family->default_method) << family->name << " in README.md's families table";
}

// `auto` is the registry's: a family that a built-in table lists (renderer/filters/auto_tables/) gets
// it as its last method and its default, in the built-in registry and in any a test makes; a family
// without one gets none, and no family builds its own.
TEST(Schema, TheRegistryGivesAutoToEveryFamilyWithABuiltInTable) {
  for (const filters::Family* family : filters::registry().families()) {
    const bool has_table = filters::has_builtin_table(family->name);
    const filters::Method* chosen = family->find("auto");
    EXPECT_EQ(chosen != nullptr, has_table) << family->name;
    if (!has_table) continue;
    EXPECT_EQ(&family->methods.back(), chosen) << family->name;
    EXPECT_EQ(family->default_method, "auto") << family->name;
    EXPECT_TRUE(chosen->runs) << family->name;
  }
  // A registry of its own: the registered family as built, completed the same way.
  filters::Family bare = *filters::registry().find("tent");
  bare.methods.pop_back();  // as tent.cpp builds it: no auto
  bare.default_method.clear();
  const filters::Registry own({&bare});
  const filters::Family& tent = own.family("tent");
  ASSERT_NE(tent.find("auto"), nullptr);
  EXPECT_EQ(tent.default_method, "auto");
  EXPECT_EQ(bare.find("auto"), nullptr);  // the registry completes its own copy
}

// The built-in tables: each of a device its IDs name (the nearness of another device's table is by
// them), and the table of this very device first, then those of its vendor and ID series.
TEST(Schema, BuiltInTunesTablesSayTheirDeviceAndAreOrderedByNearness) {
  ASSERT_GE(filters::builtin_tune_tables().size(), 1u);
  for (const auto& t : filters::builtin_tune_tables()) {
    EXPECT_NE(t->vendor_id, 0u) << t->device;
    EXPECT_NE(t->device_id, 0u) << t->device;
    EXPECT_FALSE(t->rankings.empty()) << t->device;
  }
  const filters::TuneTable& first = *filters::builtin_tune_tables().front();
  vk::DeviceReport same;  // the first table's own device
  same.name = first.device;
  same.vendor_id = first.vendor_id;
  same.device_id = first.device_id;
  ::setenv("FILTERLAB_TUNE", "/nonexistent/filterlab-tune.json", 1);
  std::vector<filters::TableInForce> order = filters::tables_in_order(same);
  ASSERT_EQ(order.size(), filters::builtin_tune_tables().size());
  EXPECT_EQ(order.front().kind, filters::TableInForce::Kind::BuiltInThisDevice);
  EXPECT_EQ(order.front().said(), "built-in for this device: " + first.device);
  vk::DeviceReport sibling = same;  // another product of the series: the same vendor, another ID in it
  sibling.name = "a sibling";
  sibling.device_id = (first.device_id & ~0xffu) | ((first.device_id + 1) & 0xffu);
  order = filters::tables_in_order(sibling);
  EXPECT_EQ(order.front().table, filters::builtin_tune_tables().front()) << "nearest: the same series";
  EXPECT_EQ(order.front().said(), "built-in for another device: " + first.device);
  vk::DeviceReport stranger;  // lavapipe's kind: another vendor; every table is another device's
  stranger.name = "a CPU";
  stranger.vendor_id = 0x10005;
  for (const filters::TableInForce& t : filters::tables_in_order(stranger))
    EXPECT_EQ(t.kind, filters::TableInForce::Kind::BuiltInAnotherDevice);
  ::unsetenv("FILTERLAB_TUNE");
}
