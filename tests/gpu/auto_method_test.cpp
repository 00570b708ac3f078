// tier: smoke
// The `auto` method (filters/auto_method.h), for every family that has one: it runs the first method
// of the device's table (FILTERLAB_TUNE) that is exact and serves the step (its radius too), falls
// back down the ranking and to the nearest larger key, gives exactly that method's output, says which
// table it read (this device's, another device's, a built-in one), passes a stale table over, and
// `filterlab tune` writes the table it reads. Lavapipe, validation on.
#include "gpu_test_util.h"

#include "bench/tune.h"
#include "filters/apply.h"
#include "filters/auto_method.h"
#include "filters/chain.h"
#include "filters/registry.h"

#include "io/image_io.h"
#include "runtime/frame_ring.h"

#include <cstdlib>
#include <fstream>
#include <tuple>

using namespace filterlab;

namespace {

class AutoMethod : public test::ValidatedSuite {
 protected:
  void TearDown() override {
    ::unsetenv("FILTERLAB_TUNE");
    ValidatedSuite::TearDown();
  }
  passes::PassEnv env_{*context_, *shaders_, runtime::kFramesInFlight};
};

std::vector<const filters::Family*> families_with_auto() {
  std::vector<const filters::Family*> out;
  for (const filters::Family* f : filters::registry().families())
    if (f->find("auto")) out.push_back(f);
  return out;
}

// The step's key as a parameter (":radius=4"), or nothing for a family without a size parameter,
// whose tables have the one key 0.
std::string key_param(const filters::Family& family, int key) {
  const filters::Param* size = family.size_param();
  return size ? ":" + size->name + "=" + std::to_string(key) : "";
}
int table_key(const filters::Family& family, int key) {
  return family.size_param() ? key : 0;
}

// A family that reads the scene (depth, motion) cannot run on a still image.
bool runs_on_still_images(const filters::Family& family) {
  return !family.needs(filters::Input::Depth) && !family.needs(filters::Input::Motion);
}

// A table for `family` on this device: at key 4 (fp32) the exact methods in reverse registry order.
filters::TuneTable reversed_table(const filters::Family& family, const vk::DeviceReport& device) {
  filters::TuneTable t;
  t.device = device.name;
  t.driver = device.driver_info;
  t.keys[family.name] = family.size_param() ? family.size_param()->name : "none";
  std::vector<std::string> ranking;
  for (auto m = family.methods.rbegin(); m != family.methods.rend(); ++m)
    if (m->exact && m->name != "auto") ranking.push_back(m->name);
  t.rankings[family.name]["fp32"][table_key(family, 4)] = ranking;
  return t;
}

}  // namespace

TEST_F(AutoMethod, RunsTheFirstServedMethodOfTheDevicesTableAndGivesItsOutput) {
  const auto families = families_with_auto();
  ASSERT_FALSE(families.empty()) << "no family has an auto method";
  const std::string path = test::temp_dir("auto") + "/tune.json";
  ::setenv("FILTERLAB_TUNE", path.c_str(), 1);
  for (const filters::Family* family : families) {
    const filters::TuneTable table = reversed_table(*family, context_->report());
    filters::write_tune_table(table, path);
    const std::vector<std::string>& ranking =
        table.rankings.at(family->name).at("fp32").at(table_key(*family, 4));
    // The first method of the ranking that exists and serves the step here.
    std::string expected;
    for (const std::string& name : ranking) {
      if (!family->find(name)) continue;
      try {
        filters::check_support(
            filters::resolve(
                filters::parse_chain(family->name + "." + name + ":precision=fp32" + key_param(*family, 4))
                    .at(0)),
            *context_);
        expected = name;
        break;
      } catch (const filters::ChainError&) {
      }
    }
    ASSERT_FALSE(expected.empty());
    for (int key : {3, 4}) {  // 3: no entry of its own, the nearest larger key's
      const std::string params = ":precision=fp32" + key_param(*family, key);
      const filters::ResolvedStep step =
          filters::resolve(filters::parse_chain(family->name + ".auto" + params).at(0));
      const filters::AutoChoice choice = filters::choose_auto(*family, step.params, *context_);
      EXPECT_EQ(choice.method->name, expected) << family->name << " at " << key;
      EXPECT_EQ(choice.table.kind, filters::TableInForce::Kind::ThisDevice);
      EXPECT_EQ(choice.table.path, path);
      EXPECT_EQ(choice.table.said(), "this device");
      if (!runs_on_still_images(*family)) continue;  // its own tests run it on the scene
      // Exactly the picked method's output.
      const io::ImageF input = common::random_image(37, 23, 4, 5);
      const io::ImageF by_auto =
          filters::apply_to_each(env_, {input}, filters::parse_chain(family->name + ".auto" + params).at(0))
              .at(0);
      const io::ImageF by_method =
          filters::apply_to_each(env_, {input},
                                 filters::parse_chain(family->name + "." + expected + params).at(0))
              .at(0);
      EXPECT_EQ(by_auto.pixels, by_method.pixels) << family->name;
    }
  }
}

// A method the device runs, but not at this key (a radius beyond what it serves here), is passed over
// for the next: auto must not build it where the method itself would be refused.
TEST_F(AutoMethod, PassesOverAMethodThatDoesNotServeTheKeyHere) {
  const std::string path = test::temp_dir("auto-limits") + "/tune.json";
  ::setenv("FILTERLAB_TUNE", path.c_str(), 1);
  int checked = 0;
  for (const filters::Family* family : families_with_auto()) {
    // The exact method with the smallest limit on the key here, and the key just beyond it.
    const filters::Method* limited = nullptr;
    int beyond = 0;
    const std::string precision = family->param("precision") ? ":precision=fp32" : "";
    for (const filters::Method& m : family->methods) {
      if (!m.exact || m.name == "auto") continue;
      filters::Support support;
      try {
        support = filters::device_support(
            filters::resolve(filters::parse_chain(family->name + "." + m.name + precision).at(0)), *context_);
      } catch (const filters::ChainError&) {  // a method that needs more parameters than the defaults
        continue;
      }
      if (!support.available() || !support.max_size) continue;
      if (!limited || *support.max_size + 1 < beyond) {
        limited = &m;
        beyond = *support.max_size + 1;
      }
    }
    const filters::Param* key = family->size_param();
    if (!key || !limited || beyond > key->max) continue;  // no key, none limited here, or at its maximum
    const std::string params = precision + ":" + family->size_param()->name + "=" + std::to_string(beyond);
    std::string expected;  // the next exact method that serves the key here
    for (const filters::Method& m : family->methods) {
      if (!m.exact || m.name == "auto" || &m == limited) continue;
      try {
        filters::check_support(
            filters::resolve(filters::parse_chain(family->name + "." + m.name + params).at(0)), *context_);
        expected = m.name;
        break;
      } catch (const filters::ChainError&) {
      }
    }
    ASSERT_FALSE(expected.empty()) << family->name;
    filters::TuneTable t;
    t.device = context_->report().name;
    t.driver = context_->report().driver_info;
    t.keys[family->name] = family->size_param()->name;
    t.rankings[family->name]["fp32"][beyond] = {limited->name, expected};
    filters::write_tune_table(t, path);
    const filters::ResolvedStep step =
        filters::resolve(filters::parse_chain(family->name + ".auto" + params).at(0));
    EXPECT_EQ(filters::choose_auto(*family, step.params, *context_).method->name, expected)
        << family->name << ": " << limited->name << " serves " << family->size_param()->name << " up to "
        << beyond - 1;
    ++checked;
  }
  if (checked == 0) GTEST_SKIP() << "no auto family has a method limited on this device";
}

TEST_F(AutoMethod, FallsBackToTheBuiltInTableWithoutADeviceTable) {
  ::setenv("FILTERLAB_TUNE", (test::temp_dir("auto-none") + "/absent.json").c_str(), 1);
  for (const filters::Family* family : families_with_auto()) {
    const filters::ResolvedStep step =
        filters::resolve(filters::parse_chain(family->name + ".auto" + key_param(*family, 2)).at(0));
    const filters::AutoChoice choice = filters::choose_auto(*family, step.params, *context_);
    ASSERT_NE(choice.method, nullptr);
    EXPECT_TRUE(choice.method->exact);
    EXPECT_NE(choice.method->name, "auto");
    // Lavapipe is no device a built-in table is of: the nearest is another device's.
    EXPECT_EQ(choice.table.kind, filters::TableInForce::Kind::BuiltInAnotherDevice) << family->name;
    EXPECT_EQ(choice.table.said().rfind("built-in for another device: ", 0), 0u) << choice.table.said();
    const std::string precision = family->param("precision") ? step.params.choice("precision") : "fp32";
    EXPECT_EQ(filters::table_for(*family, context_->report(), precision).said(), choice.table.said());
  }
}

// A table in FILTERLAB_TUNE of another device is used but never taken for this device's: auto says
// whose it is. A table naming a method this build does not have is stale: a warning, and the next
// table (the built-in one) decides.
TEST_F(AutoMethod, SaysAnotherDevicesTableAndPassesOverAStaleOne) {
  const std::string path = test::temp_dir("auto-other") + "/tune.json";
  ::setenv("FILTERLAB_TUNE", path.c_str(), 1);
  const filters::Family& family = filters::registry().family("gaussian");
  filters::TuneTable other = reversed_table(family, context_->report());
  other.device = "Another GPU 9000";
  filters::write_tune_table(other, path);
  const filters::ResolvedStep step =
      filters::resolve(filters::parse_chain("gaussian.auto:precision=fp32:radius=4").at(0));
  const filters::AutoChoice choice = filters::choose_auto(family, step.params, *context_);
  EXPECT_EQ(choice.table.kind, filters::TableInForce::Kind::AnotherDevicesFile);
  EXPECT_EQ(choice.table.said(), "tuned for another device: Another GPU 9000");
  EXPECT_EQ(choice.method->name, other.rankings.at("gaussian").at("fp32").at(4).front());

  filters::TuneTable stale = reversed_table(family, context_->report());
  stale.rankings["gaussian"]["fp32"][4].insert(stale.rankings["gaussian"]["fp32"][4].begin(), "comp.renamed");
  filters::write_tune_table(stale, path);
  const filters::AutoChoice passed = filters::choose_auto(family, step.params, *context_);
  EXPECT_EQ(passed.table.kind, filters::TableInForce::Kind::BuiltInAnotherDevice) << passed.table.said();
  EXPECT_EQ(filters::unknown_methods(stale, family), std::vector<std::string>{"comp.renamed"});
  // The command line: the warning, the table it took instead, and the run goes on.
  const std::string dir = test::temp_dir("auto-stale");
  io::write_pfm(dir + "/in.pfm", common::random_image(24, 16, 3, 9));
  const auto r = test::run_binary("filter --input " + dir + "/in.pfm --output " + dir +
                                      "/out.pfm --filter gaussian --method auto --radius 4 --precision fp32",
                                  "FILTERLAB_TUNE=" + path);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("warning: the auto table " + path +
                          " lists gaussian methods this build does not have "
                          "(comp.renamed)"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("gaussian.auto: " + passed.method->name + " (table: " + passed.table.said() + ")"),
            std::string::npos)
      << r.output;
}

// `tune` times every exact method and writes the table auto reads, where it is asked to; a run with
// it says "this device"; a corrupt table is refused with its path.
TEST(AutoMethodTune, WritesTheTableThatAutoReads) {
  const std::string dir = test::temp_dir("tune");
  for (const filters::Family* family : families_with_auto()) {
    const filters::Param* size = family->size_param();
    const auto r = test::run_binary(
        "tune --filter " + family->name + " --size 24x16 " + (size ? "--keys 3,1,3 " : std::string()) +
        "--precision fp32 --frames 1 --no-refine --quiet --output " + dir + "/t.json");
    ASSERT_EQ(r.exit_code, 0) << r.output;
    // A table written elsewhere than where auto looks says how auto reads it (issue #37).
    EXPECT_NE(r.output.find("auto reads it with FILTERLAB_TUNE=" + dir + "/t.json"), std::string::npos)
        << r.output;
    const filters::TuneTable t = filters::read_tune_table(dir + "/t.json");
    EXPECT_EQ(t.vendor_id, 0x10005u) << "lavapipe's (Mesa's) vendor ID";
    const auto& by_key = t.rankings.at(family->name).at("fp32");
    ASSERT_EQ(by_key.size(), size ? 2u : 1u);
    for (const auto& [key, ranking] : by_key) {
      EXPECT_FALSE(ranking.empty());
      for (const std::string& name : ranking) {
        ASSERT_NE(family->find(name), nullptr) << name;
        EXPECT_TRUE(family->find(name)->exact) << name;
        EXPECT_NE(name, "auto");
      }
    }
    if (!runs_on_still_images(*family)) continue;
    // `filter --method auto` reads it and says what it picked and from which table.
    io::write_pfm(dir + "/in.pfm", common::random_image(24, 16, 3, 9));
    const auto picked = test::run_binary(
        "filter --input " + dir + "/in.pfm --output " + dir + "/out.pfm --filter " + family->name +
            " --method auto" + (size ? " --" + size->name + " 3" : std::string()) + " --precision fp32",
        "FILTERLAB_TUNE=" + dir + "/t.json");
    EXPECT_EQ(picked.exit_code, 0) << picked.output;
    EXPECT_NE(picked.output.find(family->name + ".auto: " + by_key.at(table_key(*family, 3)).front() +
                                 " (table: this device)"),
              std::string::npos)
        << picked.output;
  }
  // Each run kept what the runs before it measured (other families): the table holds them all; the
  // keys were given in any order and repeated, and each was timed once.
  EXPECT_EQ(filters::read_tune_table(dir + "/t.json").rankings.size(), families_with_auto().size());
  // Where auto looks by default (XDG_CONFIG_HOME), and `info` lists it as this device's.
  const auto tuned =
      test::run_binary("tune --filter fxaa --frames 1 --quiet", "XDG_CONFIG_HOME=" + dir + "/config");
  ASSERT_EQ(tuned.exit_code, 0) << tuned.output;
  EXPECT_NE(tuned.output.find("is a CPU device: tuned at 256x144"), std::string::npos) << tuned.output;
  EXPECT_NE(tuned.output.find("(auto on this device reads it)"), std::string::npos) << tuned.output;
  const auto info = test::run_binary("info", "XDG_CONFIG_HOME=" + dir + "/config");
  EXPECT_NE(info.output.find("fxaa.auto's table"), std::string::npos) << info.output;
  EXPECT_NE(info.output.find("this device"), std::string::npos) << info.output;
  EXPECT_NE(info.output.find("built-in auto table         NVIDIA H100 80GB HBM3"), std::string::npos)
      << info.output;
  std::ofstream(dir + "/bad.json") << "{\"schema\": \"something else\"}";
  EXPECT_THROW(filters::read_tune_table(dir + "/bad.json"), std::runtime_error);
  const auto refused = test::run_binary("run --headless --size 32x32 --frames 1 --chain gaussian.auto",
                                        "FILTERLAB_TUNE=" + dir + "/bad.json");
  EXPECT_EQ(refused.exit_code, 2) << refused.output;
  EXPECT_NE(refused.output.find(dir + "/bad.json: not a filterlab tune table"), std::string::npos)
      << refused.output;
}

// A family none of whose exact methods runs on the device: tune says so, and its table has no entry
// for it (auto reads the next table). A registry of its own: tent, every method refused here.
TEST(AutoMethodTune, SaysWhereNoExactMethodRunsHere) {
  filters::Family tent = *filters::registry().find("tent");
  tent.methods.pop_back();  // the registry's auto; the test's registry gives it again
  tent.default_method.clear();
  for (filters::Method& m : tent.methods)
    m.support = [](const vk::Context&, const filters::ParamValues&) {
      return filters::Support{"refused by this test", {}};
    };
  const filters::Registry own({&tent});
  bench::TuneOptions options;
  options.registry = &own;
  options.size = VkExtent2D{24, 16};
  options.keys = {1};
  options.precisions = {"fp32"};
  options.frames = 1;
  options.validation = true;
  options.shader_dir = FILTERLAB_SHADER_DIR;
  const bench::TuneResult r = bench::run_tune(options);
  EXPECT_EQ(r.validation_messages, 0u);
  EXPECT_TRUE(r.cases.empty());
  EXPECT_FALSE(r.table.rankings.count("tent"));
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_EQ(r.notes[0],
            "tent fp32: no exact method runs on " + r.device.name + "; its auto keeps the next table");
}

// convolve.auto's key is the kernel's half side: a kernel file's from its size, whatever `radius`
// says (it sizes generated kernels only), so a 3x3 file runs directly and a 33x33 one through the
// FFT, by the built-in table's crossover.
TEST_F(AutoMethod, AKernelFilesKeyIsItsHalfSide) {
  ::setenv("FILTERLAB_TUNE", (test::temp_dir("auto-kernel") + "/absent.json").c_str(), 1);
  const filters::Family& convolve = filters::registry().family("convolve");
  const std::string dir = test::temp_dir("auto-kernel-files");
  for (const auto& [side, radius, expected] :
       {std::tuple{3u, 60, "direct.full2d"}, std::tuple{33u, 1, "fft.vkfft"}}) {
    const std::string file = dir + "/k" + std::to_string(side) + ".pfm";
    io::write_pfm(file, io::ImageF{side, side, 1, std::vector<float>(size_t(side) * side, 1.0f)});
    const filters::ResolvedStep step = filters::resolve(
        filters::parse_chain("convolve.auto:kernel=" + file + ":radius=" + std::to_string(radius)).at(0));
    EXPECT_EQ(convolve.tools.auto_key(step.params), int(side - 1) / 2);
    EXPECT_EQ(filters::choose_auto(convolve, step.params, *context_).method->name, expected) << side;
  }
}
