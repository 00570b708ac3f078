// Unit tests for the small pure pieces: statistics, timestamp arithmetic, the CLI and chain
// parsers, and the GPU-free parts of capture conversion.
#include "command.h"
#include "commands/bench.h"
#include "commands/filter.h"
#include "commands/run.h"
#include "common/kernel.h"
#include "common/roi.h"
#include "filters/chain.h"
#include "graph/gpu_timer.h"
#include "runtime/capture.h"
#include "runtime/stats.h"
#include "vk/formats.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <cmath>
#include <cstdlib>

using namespace filterlab;

TEST(Stats, MedianAndPercentilesInterpolate) {
  runtime::Summary s = runtime::summarize({5, 1, 4, 2, 3});
  EXPECT_EQ(s.count, 5u);
  EXPECT_DOUBLE_EQ(s.median, 3);
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.max, 5);
  EXPECT_DOUBLE_EQ(s.p5, 1.2);  // 0.05 * 4 = 0.2 of the way from 1 to 2
  EXPECT_DOUBLE_EQ(s.p95, 4.8);
  EXPECT_DOUBLE_EQ(runtime::summarize({1, 2, 3, 4}).median, 2.5);
  EXPECT_EQ(runtime::summarize({}).count, 0u);
  // {1..5}: median 3, band 0.3: only 3 itself is at the median's level.
  EXPECT_EQ(s.off_level, 4u);
  EXPECT_DOUBLE_EQ(s.off_level_share(), 4.0 / 5.0);
  EXPECT_DOUBLE_EQ(runtime::summarize({}).off_level_share(), 0.0);
  // Within 10% of the median is on its level, beyond it off (100 +- 10 and 111).
  EXPECT_EQ(runtime::summarize({90, 100, 100, 110, 111}).off_level, 1u);
  // Around a median of 0 (passes that did no work) there is no level to be off.
  EXPECT_EQ(runtime::summarize({0, 0, 0, 5}).off_level, 0u);
}

TEST(Stats, IdleFramesAreCountedApartNotAsZeroSamples) {
  // A pass that skipped a frame (PassContext::skip) has timestamps around no work: a 0 ms sample
  // would drag its median down in headless --timings and bench.
  runtime::PassSamples p;
  p.add(false, 2.0, 0.1);
  p.add(true, 0.0, 0.05);
  p.add(false, 4.0, 0.3);
  p.add(true, 0.0, 0.02);
  EXPECT_EQ(p.idle_frames, 2u);
  EXPECT_DOUBLE_EQ(runtime::summarize(p.gpu_ms).median, 3.0);
  EXPECT_EQ(runtime::summarize(p.cpu_ms).count, 2u);
}

TEST(GpuTimer, ElapsedScalesByPeriod) {
  EXPECT_DOUBLE_EQ(graph::GpuTimer::elapsed_ms(1000, 3000, 64, 1.0f), 0.002);
  EXPECT_DOUBLE_EQ(graph::GpuTimer::elapsed_ms(0, 1000000, 64, 0.5f), 0.5);
}

TEST(GpuTimer, ElapsedMasksValidBitsAndSurvivesWrap) {
  // 36 valid bits: the counter wraps at 2^36; upper garbage bits must be ignored.
  const uint64_t wrap = 1ull << 36;
  const uint64_t garbage = 0xABCull << 52;
  EXPECT_DOUBLE_EQ(graph::GpuTimer::elapsed_ms(garbage | (wrap - 10), garbage | 5, 36, 1.0f), 15e-6);
  EXPECT_DOUBLE_EQ(graph::GpuTimer::elapsed_ms(wrap - 10, 5, 36, 1.0f), 15e-6);
}

// The command line's work, prepared with the build's shaders beside the "binary": a usage error
// stops it; nothing runs.
app::Work prepare(const std::vector<std::string>& argv) {
  return app::prepare(argv, std::filesystem::path(FILTERLAB_SHADER_DIR).parent_path());
}

// A command's options as its parser reads them.
template <typename Parse>
auto parsed(Parse parse, const std::string& command, const std::vector<std::string>& args,
            const std::filesystem::path& exe_dir = "/tmp") {
  app::Args walk(command, args, exe_dir);
  return parse(walk);
}
app::RunRequest parsed_run(const std::vector<std::string>& args, const std::filesystem::path& exe = "/tmp") {
  return parsed(app::parse_run, "run", args, exe);
}
app::BenchRequest parsed_bench(const std::vector<std::string>& args,
                               const std::filesystem::path& exe = "/tmp") {
  return parsed(app::parse_bench, "bench", args, exe);
}
app::FilterRequest parsed_filter(const std::vector<std::string>& args,
                                 const std::filesystem::path& exe = "/tmp") {
  return parsed(app::parse_filter, "filter", args, exe);
}

TEST(Cli, ParsesARun) {
  auto o = parsed_run({"--headless", "--size", "333x197", "--frames", "7", "--warmup", "0", "--chain", "copy",
                       "--capture", "final=/tmp/x.png", "--camera", "fixed", "--animate", "off", "--jitter",
                       "--validation", "--device", "llvm"},
                      "/opt/fl");
  EXPECT_TRUE(o.headless);
  EXPECT_EQ(o.run.size.width, 333u);
  EXPECT_EQ(o.run.size.height, 197u);
  EXPECT_EQ(o.run.frames, 7u);
  EXPECT_EQ(o.run.warmup, 0u);
  EXPECT_EQ(o.run.chain, "copy");
  ASSERT_EQ(o.run.captures.size(), 1u);
  EXPECT_EQ(o.run.captures[0].image, "final");
  EXPECT_FALSE(o.run.scene.orbit_camera);
  EXPECT_FALSE(o.run.scene.animate_objects);
  EXPECT_TRUE(o.run.scene.jitter);
  EXPECT_TRUE(o.run.validation);
  EXPECT_EQ(o.run.device, "llvm");
  EXPECT_EQ(o.run.shader_dir, std::filesystem::path("/opt/fl/shaders"));
}

void expect_usage_error(const std::vector<std::string>& args, const std::string& fragment) {
  try {
    prepare(args);
    FAIL() << "no error for " << fragment;
  } catch (const app::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

// #37's first-hour traps: `filterlab bench --help` was "unknown option '--help' for bench"; a
// mistyped option got no suggestion.
TEST(Cli, EachCommandHasItsOwnHelp) {
  for (const char* command :
       {"run", "info", "filters", "methods", "filter", "bench", "quality", "evaluate", "compare", "report"}) {
    for (const char* flag : {"--help", "-h"}) {
      const app::Request request = app::read_request({command, "--frames", flag});
      EXPECT_EQ(request.command, nullptr) << command;
      EXPECT_EQ(request.help, command);
    }
    const std::string help = app::command_help(command);
    EXPECT_NE(help.find(std::string("\n  ") + command), std::string::npos) << command << ":\n" << help;
  }
  const std::string bench = app::command_help("bench");
  EXPECT_NE(bench.find("bench options:"), std::string::npos) << bench;
  EXPECT_NE(bench.find("--sweep"), std::string::npos) << bench;
  EXPECT_EQ(bench.find("quality options:"), std::string::npos) << bench;
  EXPECT_NE(app::command_help("filter").find("--output FILE"), std::string::npos);
  EXPECT_EQ(app::read_request({"--help"}).help, "");  // the whole help, as before
}

TEST(Cli, AMistypedOptionGetsTheNearestOne) {
  expect_usage_error({"run", "--headles"}, "unknown option '--headles' for run (did you mean --headless?)");
  expect_usage_error({"filter", "--radus", "3"}, "(did you mean --radius?)");
  expect_usage_error({"bench", "--radus", "3"}, "(did you mean --radius?)");
  expect_usage_error({"quality", "--sizes", "1x1"}, "(did you mean --size?)");
  expect_usage_error({"info", "--jsno", "x"}, "(did you mean --json?)");
  expect_usage_error({"compare", "a", "b", "--dif", "x"}, "(did you mean --diff?)");
  expect_usage_error({"report", "a.json", "--outt", "x"}, "(did you mean --out?)");
  // Nothing near: no guess, the command's help named.
  expect_usage_error({"bench", "--zzzzzz", "1"},
                     "unknown option '--zzzzzz' for bench (see filterlab bench --help)");
}

TEST(Cli, FilesGivenWithoutTheirOptionsAndUnknownFiltersSayWhatToWrite) {
  expect_usage_error(
      {"filter", "a.png", "b.png"},
      "unexpected argument 'a.png' for filter: the files are given as --input FILE --output FILE");
  // `filter --filter blur` was told about --chain, which filter does not take.
  try {
    filters::check_chain(filters::parse_chain("blur"));
    FAIL() << "blur resolved";
  } catch (const filters::ChainError& e) {
    EXPECT_NE(std::string(e.what()).find("unknown filter 'blur' (filters: gaussian"), std::string::npos)
        << e.what();
    EXPECT_EQ(std::string(e.what()).find("--chain"), std::string::npos) << e.what();
  }
}

// --captures DIR: a folder that does not exist yet is made when the first capture is written; a
// path through a file is still refused before anything runs.
TEST(Cli, CapturesFolderIsMadeWhenMissing) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("filterlab-cli-captures-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  const app::BenchRequest o = parsed_bench({"--captures", (dir / "new" / "deeper").string()});
  EXPECT_EQ(o.bench.captures_dir, dir / "new" / "deeper");
  EXPECT_FALSE(std::filesystem::exists(dir)) << "nothing made by parsing";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "file") << "x";
  expect_usage_error({"bench", "--captures", (dir / "file" / "sub").string()}, "is not a folder");
  std::filesystem::remove_all(dir);
}

// The window's drivers for scripts are an environment variable, not options: --help lists none.
TEST(Cli, TheWindowScriptComesFromTheEnvironmentNotTheOptions) {
  EXPECT_EQ(app::usage_text().find("--test-"), std::string::npos);
  expect_usage_error({"run", "--test-close", "5"}, "unknown option '--test-close'");
  struct Unset {  // for the tests after this one, whichever way it ends
    ~Unset() { ::unsetenv("FILTERLAB_WINDOW_SCRIPT"); }
  } unset;
  ::setenv("FILTERLAB_WINDOW_SCRIPT",
           "screenshot@3,resize@4:320x200,inspect@6:10,20,minimize@5,close@9,screenshot@7", 1);
  const auto o = parsed_run({"--frames", "10"});
  ASSERT_EQ(o.window.test_inspect_at.size(), 1u);
  EXPECT_EQ(o.window.test_inspect_at[0].frame, 6u);
  EXPECT_EQ(o.window.test_inspect_at[0].x, 10);
  EXPECT_EQ(o.window.test_inspect_at[0].y, 20);
  EXPECT_EQ(o.window.test_screenshot_at, (std::vector<uint32_t>{3, 7}));
  ASSERT_EQ(o.window.test_resizes.size(), 1u);
  EXPECT_EQ(o.window.test_resizes[0].frame, 4u);
  EXPECT_EQ(o.window.test_resizes[0].size.width, 320u);
  EXPECT_EQ(o.window.test_minimize_at, 5u);
  EXPECT_EQ(o.window.test_close_at, 9u);
  EXPECT_TRUE(parsed_run({"--headless"}).window.test_screenshot_at.empty());
  for (const char* bad : {"close", "close@x", "jump@4", "resize@4", "resize@4:0x0", "close@4,", "inspect@4",
                          "inspect@4:10", "inspect@4:10,", "inspect@4:10,y", "inspect@4:-1,2"}) {
    ::setenv("FILTERLAB_WINDOW_SCRIPT", bad, 1);
    EXPECT_THROW(parsed_run({}), app::UsageError) << bad;
  }
}

TEST(Cli, ParsesTheFilterCommandsIntoOneChainStep) {
  const auto o = parsed_filter({"--input", "in.png", "--output", "out.pfm", "--method", "comp.tiled",
                                "--radius", "3", "--src-roi", "1,2,30,20", "--dst-roi", "0,0,30,20", "--raw"},
                               "/bin");
  EXPECT_EQ(filters::step_spec(o.step), "gaussian.comp.tiled:radius=3:src_roi=1,2,30,20:dst_roi=0,0,30,20");
  EXPECT_TRUE(o.raw);
  const auto p = parsed_filter({"--input", "in.png", "--output", "out.pfm", "--filter", "copy", "--method",
                                "comp.fetch", "--param", "precision=fp32"},
                               "/bin");
  EXPECT_EQ(filters::step_spec(p.step), "copy.comp.fetch:precision=fp32");
  const auto b = parsed_bench({"--radii", "1,8", "--sizes", "64x32,128x64", "--precision", "fp32",
                               "--methods", "frag.full2d", "--device", "llvm"},
                              "/bin");
  ASSERT_EQ(b.bench.sweeps.size(), 1u);
  EXPECT_EQ(b.bench.sweeps[0].param, "radius");
  EXPECT_EQ(b.bench.sweeps[0].values, (std::vector<std::string>{"1", "8"}));
  ASSERT_EQ(b.bench.sizes.size(), 2u);
  EXPECT_EQ(b.bench.sizes[1].width, 128u);
  EXPECT_EQ(b.bench.precisions, (std::vector<std::string>{"fp32"}));
  const auto sweep = parsed_bench({"--sweep", "sigma=2,4", "--param", "kernel=gaussian"});
  ASSERT_EQ(sweep.bench.sweeps.size(), 1u);  // an explicit sweep replaces the default one over the radius
  EXPECT_EQ(sweep.bench.sweeps[0].param, "sigma");
  EXPECT_EQ(sweep.bench.params, (std::vector<filters::RawParam>{{"kernel", "gaussian"}}));
  EXPECT_TRUE(parsed_bench({"--filter", "copy"}).bench.sweeps.empty());  // no radius
  // A fixed radius replaces the default sweep; parameters are checked for the methods asked for
  // only (outside is comp.tiled's); --KEY VALUE is --param KEY=VALUE for any family's parameter.
  const auto fixed = parsed_bench({"--radius", "4", "--methods", "comp.tiled", "--outside", "poison"});
  EXPECT_TRUE(fixed.bench.sweeps.empty());
  EXPECT_EQ(fixed.bench.params, (std::vector<filters::RawParam>{{"radius", "4"}, {"outside", "poison"}}));
  EXPECT_EQ(fixed.bench.filter, filters::registry().default_family().name);
  EXPECT_EQ(b.bench.device, "llvm");
  EXPECT_EQ(b.bench.shader_dir, std::filesystem::path("/bin/shaders"));
}

TEST(Cli, RejectsBadInputWithAClearMessage) {
  expect_usage_error({"bench", "--radii", "0"}, "gaussian: radius wants a whole number in 1..126, got '0'");
  expect_usage_error({"bench", "--sweep", "sigma=1e-200"}, "gaussian: sigma wants a number in 0.05..10000");
  expect_usage_error({"bench", "--sweep", "radius"}, "--sweep wants key=value");
  expect_usage_error({"bench", "--radii", "2", "--sweep", "radius=3"}, "radius is swept twice");
  expect_usage_error({"bench", "--filter", "sharpen"}, "unknown filter 'sharpen'");
  expect_usage_error({"bench", "--param", "blend=2"}, "gaussian: unknown parameter 'blend'");
  expect_usage_error({"bench", "--radii", "1,,2"}, "comma-separated");
  expect_usage_error({"bench", "--methods", "frag.fastest"}, "unknown method 'frag.fastest'");
  expect_usage_error({"bench", "--param", "precision=fp32"},
                     "--param precision: bench times the precisions --precision");
  expect_usage_error({"bench", "--radius", "4", "--radii", "1,2"}, "radius is both fixed");
  expect_usage_error({"bench", "--methods", "frag.full2d", "--outside", "poison"}, "outside");
  expect_usage_error({"bench", "--no-such-thing", "1"}, "unknown option '--no-such-thing' for bench");
  expect_usage_error({"filter", "--input", "a.png"}, "needs --output");
  expect_usage_error({"filter", "--input", "a.tga", "--output", "b.png", "--method", "frag.full2d"},
                     "unsupported file type");
  expect_usage_error(
      {"filter", "--input", "a.png", "--output", "b.png", "--method", "frag.full2d", "--radius", "1:sigma=2"},
      "radius wants a whole number");
  expect_usage_error(
      {"filter", "--input", "a.png", "--output", "b.png", "--method", "comp.tiled", "--src-roi", "1,2"},
      "src_roi wants x,y,w,h");
  // A method name only: chain syntax in --method is refused, not half-applied.
  expect_usage_error(
      {"filter", "--input", "a.png", "--output", "b.png", "--method", "comp.tiled,bogus", "--radius", "8"},
      "--method wants a method name");
  expect_usage_error(
      {"filter", "--input", "a.png", "--output", "b.png", "--method", "comp.tiled:radius=5", "--radius", "2"},
      "--method wants a method name");
  expect_usage_error(
      {"filter", "--input", "a.png", "--output", "b.png", "--method", "comp.tiled", "--sigma", "1e-200"},
      "gaussian: sigma wants a number in 0.05..10000, got '1e-200'");
  expect_usage_error({"filter", "--input", "a.png", "--output", "b.png", "--method", "comp.tiled", "--radius",
                      "2", "--param", "radius=3"},
                     "gaussian: radius is given twice");
  expect_usage_error(
      {"filter", "--input", "a.png", "--output", "b.png", "--method", "comp.tiled", "--param", "radius"},
      "--param wants key=value");
  expect_usage_error({"methods", "--size", "1x1"}, "unknown option '--size' for methods");
  expect_usage_error({"quality", "--size", "8x8"}, "at least 16x16");
  // No command is `run`: the window (README: "build/filterlab alone opens the window").
  EXPECT_EQ(app::read_request({}).command, app::find_command("run"));
  expect_usage_error({"render"}, "unknown command 'render'");
  expect_usage_error({"run", "--headless", "--bogus"}, "unknown option '--bogus'");
  expect_usage_error({"run", "--headless", "--size", "0x0"}, "1..16384");
  expect_usage_error({"run", "--headless", "--size", "640"}, "WxH");
  expect_usage_error({"run", "--headless", "--size", "64x-3"}, "WxH");
  expect_usage_error({"run", "--headless", "--frames", "-1"}, "--frames wants a whole number");
  expect_usage_error({"run", "--headless", "--frames", "0"}, "--frames");
  expect_usage_error({"run", "--headless", "--frames"}, "--frames needs a value");
  expect_usage_error({"run", "--headless", "--capture", "final"}, "NAME=FILE");
  expect_usage_error({"run", "--headless", "--capture", "final=x.jpg"}, ".png, .pfm or .exr");
  expect_usage_error({"run", "--headless", "--capture", "final=/nonexistent/dir/x.png"}, "does not exist");
  expect_usage_error({"run", "--headless", "--timings", "/etc/passwd/x.json"}, "does not exist");
  expect_usage_error({"run", "--headless", "--dump-graph", "/tmp"}, "is a folder");
  expect_usage_error({"run", "--headless", "--camera", "spin"}, "orbit or fixed");
  expect_usage_error({"run", "--headless", "--exposure", "-2"}, "positive number");
  expect_usage_error({"run", "--size", "64x64", "--timings", "t.json"}, "--timings needs --headless");
  expect_usage_error({"run", "--headless", "--screenshot", "s.png"}, "needs the window");
  expect_usage_error({"run", "--present-mode", "vsync"}, "--present-mode");
  expect_usage_error({"info", "--size", "1x1"}, "unknown option '--size' for info");
}

TEST(Chain, ParsesStepsMethodsAndParameters) {
  auto steps = filters::parse_chain("gaussian.separable:radius=8:sigma=2.5,copy");
  ASSERT_EQ(steps.size(), 2u);
  EXPECT_EQ(steps[0].filter, "gaussian");
  EXPECT_EQ(steps[0].method, "separable");
  EXPECT_EQ(*steps[0].find("radius"), "8");
  EXPECT_EQ(*steps[0].find("sigma"), "2.5");
  EXPECT_THROW(filters::parse_chain("gaussian.comp.tiled:radius=2:radius=3"), filters::ChainError);
  EXPECT_EQ(steps[1].filter, "copy");
  EXPECT_TRUE(filters::parse_chain("").empty());
  EXPECT_THROW(filters::parse_chain("copy,,copy"), filters::ChainError);
  EXPECT_THROW(filters::parse_chain("gaussian:radius"), filters::ChainError);
  EXPECT_NO_THROW(filters::check_chain(filters::parse_chain("copy,copy")));
  try {
    filters::check_chain(filters::parse_chain("sharpen"));
    FAIL();
  } catch (const filters::ChainError& e) {
    EXPECT_NE(std::string(e.what()).find("unknown filter 'sharpen'"), std::string::npos);
  }
}

TEST(Roi, ParsesBothFormsAndRejectsTheRest) {
  using common::Roi;
  EXPECT_EQ(common::parse_roi("3,4,100,50"), (Roi{3, 4, 100, 50}));
  EXPECT_EQ(common::parse_roi("100x50+3+4"), (Roi{3, 4, 100, 50}));
  for (const char* bad : {"", "3,4,100", "3,4,100,0", "-1,4,10,10", "3,4,1a,5", "100x50+3", "100x50", "x+1+2",
                          "100x0+1+1", "1,2,3,4,5", "99999999999,1,1,1"})
    EXPECT_FALSE(common::parse_roi(bad).has_value()) << bad;
  EXPECT_TRUE((Roi{3, 4, 100, 50}).fits_in(103, 54));
  EXPECT_FALSE((Roi{3, 4, 100, 50}).fits_in(102, 54));
}

TEST(Chain, TheGaussianSchemaRejectsBadParametersByName) {
  auto expect_error = [](const std::string& spec, const std::string& fragment) {
    try {
      filters::resolve(filters::parse_chain(spec).at(0));
      ADD_FAILURE() << spec << " was accepted";
    } catch (const filters::ChainError& e) {
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    }
  };
  EXPECT_EQ(filters::resolve(filters::parse_chain("gaussian").at(0)).method->name, "auto");
  expect_error("gaussian.fastest", "unknown method 'fastest'");
  expect_error("gaussian.frag.full2d:radius=257", "radius wants");
  expect_error("gaussian.frag.full2d:radius=0", "radius wants");
  expect_error("gaussian.frag.full2d:sigma=-1", "sigma wants");
  expect_error("gaussian.frag.full2d:kernel=tent", "kernel wants");
  expect_error("gaussian.frag.full2d:precision=fp64", "precision wants");
  expect_error("gaussian.frag.full2d:src_roi=10x10+0+0:dst_roi=10x10+0+0", "src_roi is for comp.tiled");
  expect_error("gaussian.comp.tiled:src_roi=10x10+0+0", "src_roi and dst_roi go together");
  expect_error("gaussian.comp.tiled:src_roi=10x10+0+0:dst_roi=10x11+0+0", "the same size");
  expect_error("gaussian.frag.full2d:blend=2", "unknown parameter 'blend'");
  const filters::ResolvedStep s = filters::resolve(
      filters::parse_chain("gaussian.frag.separable:radius=5:kernel=box:precision=fp32").at(0));
  EXPECT_EQ(s.method->name, "frag.separable");
  EXPECT_EQ(s.params.integer("radius"), 5);
  EXPECT_EQ(s.params.choice("kernel"), "box");
  EXPECT_EQ(s.params.choice("precision"), "fp32");
  // Defaults: sigma derived from the radius, not given.
  EXPECT_FALSE(s.params.given("sigma"));
  EXPECT_DOUBLE_EQ(s.params.number("sigma"), common::ideal_sigma(5));
  EXPECT_EQ(s.params.spec(), "radius=5:kernel=box:precision=fp32");
}

TEST(Capture, HalfFloatsConvertExactly) {
  // 1.0, -2.0, 65504 (max half), 2^-24 (smallest subnormal) in RGBA16F.
  graph::Readback r{VK_FORMAT_R16G16B16A16_SFLOAT, {1, 1}, {0x00, 0x3C, 0x00, 0xC0, 0xFF, 0x7B, 0x01, 0x00}};
  io::ImageF f = graph::to_float_image(r);
  ASSERT_EQ(f.channels, 4u);
  EXPECT_EQ(f.pixels[0], 1.0f);
  EXPECT_EQ(f.pixels[1], -2.0f);
  EXPECT_EQ(f.pixels[2], 65504.0f);
  EXPECT_EQ(f.pixels[3], std::ldexp(1.0f, -24));
}

TEST(HalfFloat, EveryFiniteHalfRoundTripsThroughFloat) {
  for (uint32_t h = 0; h < 0x10000u; ++h) {
    if ((h & 0x7c00u) == 0x7c00u) continue;  // infinities and NaNs
    ASSERT_EQ(vk::float_to_half(vk::half_to_float(uint16_t(h))), h) << std::hex << h;
  }
}

TEST(HalfFloat, RoundsToNearestEvenAndOverflowsToInfinity) {
  EXPECT_EQ(vk::float_to_half(1.0f), 0x3C00u);
  EXPECT_EQ(vk::float_to_half(1.0f + std::ldexp(1.0f, -11)), 0x3C00u);      // halfway: to even (down)
  EXPECT_EQ(vk::float_to_half(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3C02u);  // halfway: to even (up)
  EXPECT_EQ(vk::float_to_half(65520.0f), 0x7C00u);               // rounds past the largest half: infinity
  EXPECT_EQ(vk::float_to_half(std::ldexp(1.0f, -25)), 0x0000u);  // halfway to the smallest subnormal: even
  EXPECT_EQ(vk::float_to_half(std::ldexp(1.5f, -25)), 0x0001u);
}

// `filterlab help COMMAND` is COMMAND --help (it printed the general help), and a mistyped command
// is offered the nearest one (issue #54).
TEST(Cli, HelpNamesACommandAndAMistypedCommandIsOfferedTheNearest) {
  EXPECT_EQ(app::read_request({"help", "filter"}).help, "filter");
  EXPECT_EQ(app::read_request({"help"}).help, "");
  for (const std::vector<std::string>& args : {std::vector<std::string>{"fitler"}, {"help", "fitler"}}) {
    try {
      app::read_request(args);
      ADD_FAILURE() << args.back() << " was accepted";
    } catch (const app::UsageError& e) {
      EXPECT_NE(std::string(e.what()).find("did you mean filter?"), std::string::npos) << e.what();
    }
  }
}

// Issue #54's probe: numbers were parsed by strtod and stof, which take hex and leading blanks
// (`--exposure 0x10`, `--ev " 1"`); a --scene-camera without --scene was ignored by bench, quality and
// evaluate; an empty --scene said "cannot read : ..."; a window script's resize named --size.
TEST(Cli, NumbersAreStrictAndFlagsThatDoNotApplyAreRefused) {
  const std::vector<std::vector<std::string>> refused = {
      {"run", "--exposure", "0x10"},
      {"run", "--exposure", " 1"},
      {"run", "--ev", " 1"},
      {"run", "--ev", "0x1"},
      {"run", "--ev", "inf"},
      {"run", "--gain", "0x10"},
      {"bench", "--scene-camera", "eye"},
      {"quality", "--scene-camera", "eye"},
      {"evaluate", "--scene-camera", "eye"}};
  for (const std::vector<std::string>& args : refused)
    EXPECT_THROW(prepare(args), app::UsageError) << args[1] << " '" << args[2] << "'";
  EXPECT_EQ(parsed_run({"--ev", "1.5"}).run.display.exposure, std::exp2(1.5f));
  try {
    parsed_run({"--scene", ""});
    ADD_FAILURE() << "an empty --scene was accepted";
  } catch (const app::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("--scene wants builtin or a .gltf or .glb file"), std::string::npos);
  }
  ::setenv("FILTERLAB_WINDOW_SCRIPT", "resize@3:64y64", 1);
  try {
    parsed_run({});
    ADD_FAILURE() << "a bad resize was accepted";
  } catch (const app::UsageError& e) {
    EXPECT_EQ(std::string(e.what()).find("--size"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("resize"), std::string::npos) << e.what();
  }
  ::unsetenv("FILTERLAB_WINDOW_SCRIPT");
}
