// tier: smoke
// The `auto` method (filters/auto_method.h), for every family that has one: it runs the first method
// of the device's table (FILTERLAB_TUNE) that is exact and serves the step (its radius too), falls
// back down the ranking and to the nearest larger key, gives exactly that method's output, and
// `bench --tune` writes the table it reads. Lavapipe, validation on.
#include "gpu_test_util.h"

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

// A table for `family` on this device: at key 4 (fp32) the exact methods in reverse registry order,
// a method that does not exist first.
filters::TuneTable table_for(const filters::Family& family, const vk::DeviceReport& device) {
  filters::TuneTable t;
  t.device = device.name;
  t.driver = device.driver_info;
  t.keys[family.name] = family.size_param() ? family.size_param()->name : "none";
  std::vector<std::string> ranking = {"comp.no_such_method"};
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
    const filters::TuneTable table = table_for(*family, context_->report());
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
      EXPECT_NE(choice.source.find(path), std::string::npos) << choice.source;
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
    EXPECT_EQ(choice.source.find("tuned on"), std::string::npos) << choice.source;
    if (!family->tools.auto_table.empty()) {
      EXPECT_EQ(choice.source.rfind("built-in table", 0), 0u) << choice.source << ": the family has a table";
    }
  }
}

// bench --tune times every exact method and writes the table auto reads; a corrupt table is refused
// with its path.
TEST(AutoMethodBench, TuneWritesTheTableThatAutoReads) {
  const std::string dir = test::temp_dir("tune");
  for (const filters::Family* family : families_with_auto()) {
    const filters::Param* size = family->size_param();
    const auto r = test::run_binary("bench --filter " + family->name + " --tune --sizes 24x16 " +
                                    (size ? "--sweep " + size->name + "=1,3 " : std::string()) +
                                    "--precision fp32 --frames 1 --warmup 0 --warmup-ms 0 "
                                    "--quiet --tune-file " +
                                    dir + "/t.json");
    ASSERT_EQ(r.exit_code, 0) << r.output;
    // A table written elsewhere than where auto looks says how auto reads it (it once said that auto
    // did, issue #37).
    EXPECT_NE(r.output.find("auto reads it when FILTERLAB_TUNE=" + dir + "/t.json"), std::string::npos)
        << r.output;
    const filters::TuneTable t = filters::read_tune_table(dir + "/t.json");
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
    // `filter --method auto` reads it and says what it picked and from where.
    io::write_pfm(dir + "/in.pfm", common::random_image(24, 16, 3, 9));
    const auto picked = test::run_binary(
        "filter --input " + dir + "/in.pfm --output " + dir + "/out.pfm --filter " + family->name +
            " --method auto" + (size ? " --" + size->name + " 3" : std::string()) + " --precision fp32",
        "FILTERLAB_TUNE=" + dir + "/t.json");
    EXPECT_EQ(picked.exit_code, 0) << picked.output;
    EXPECT_NE(picked.output.find(family->name + ".auto: " + by_key.at(table_key(*family, 3)).front() +
                                 " (tuned on"),
              std::string::npos)
        << picked.output;
  }
  std::ofstream(dir + "/bad.json") << "{\"schema\": \"something else\"}";
  EXPECT_THROW(filters::read_tune_table(dir + "/bad.json"), std::runtime_error);
  EXPECT_EQ(test::run_binary("bench --tune-file " + dir + "/x.json").exit_code, 2);
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
