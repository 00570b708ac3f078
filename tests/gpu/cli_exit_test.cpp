// tier: smoke
// GPU tier, through the binary: exit codes and messages for bad input, byte-identical captures.
#include "gpu_test_util.h"

#include <cstdio>
#include <fstream>
#include <sstream>

using filterlab::test::run_binary;

namespace {

void expect_clean_failure(const std::string& args, int code, const std::string& fragment,
                          const std::string& env = "") {
  auto r = run_binary(args, env);
  EXPECT_EQ(r.exit_code, code) << args << "\n" << r.output;
  EXPECT_NE(r.output.find(fragment), std::string::npos) << args << "\n" << r.output;
  EXPECT_EQ(r.output.find("terminate"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("Aborted"), std::string::npos) << r.output;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST(CliExit, UsageErrorsExitWith2) {
  expect_clean_failure("frobnicate", 2, "unknown command 'frobnicate'");
  expect_clean_failure("run --headless --bogus", 2, "unknown option '--bogus'");
  expect_clean_failure("run --headless --size 0x0", 2, "--size");
  expect_clean_failure("run --headless --frames -1", 2, "--frames");
  expect_clean_failure("run --headless --capture final=/nonexistent/x.png", 2, "does not exist");
  expect_clean_failure("run --headless --chain blur", 2, "unknown filter 'blur'");
  expect_clean_failure("run --headless --size 32x32 --frames 1 --capture nothing=/tmp/x.png", 2,
                       "no image named 'nothing'");
  // The temporal big blur's fp16 accumulation is packed bits (its RGB is the step's own output).
  const std::string packed = "/tmp/filterlab-packed-capture.pfm";
  std::remove(packed.c_str());
  expect_clean_failure(
      "run --headless --size 32x32 --frames 1 --chain bigblur.comp.mip_poisson_temporal:precision=fp16 "
      "--capture bigblur.accumulation=" +
          packed,
      2, "image 'bigblur.accumulation' cannot be captured: its format (rg32ui)");
  EXPECT_FALSE(std::ifstream(packed).good()) << "nothing written";
  // The window refuses it too, before its first frame.
  expect_clean_failure(
      "run --frames 1 --no-hot-reload --size 64x64 --chain bigblur.comp.mip_poisson_temporal:precision=fp16 "
      "--capture bigblur.accumulation=" +
          packed,
      2, "image 'bigblur.accumulation' cannot be captured: its format (rg32ui)");
  EXPECT_FALSE(std::ifstream(packed).good()) << "nothing written";
  expect_clean_failure("run --headless --tonemap filmic", 2, "want aces, reinhard, hable, agx, neutral");
  expect_clean_failure("run --headless --tonemap reinhardd", 2, "did you mean reinhard?");
  expect_clean_failure("run --headless --ev 30", 2, "--ev wants stops from -20 to 20");
  expect_clean_failure("run --headless --ev nan", 2, "--ev wants stops");
  expect_clean_failure("run --headless --exposure -1", 2, "--exposure wants a positive number");
  expect_clean_failure("run --headless --exposure 2 --ev 1", 2, "already set by --exposure");
  expect_clean_failure("run --compare-mode sideways", 2, "--compare-mode wants split, diff, side or flip");
  expect_clean_failure("run --headless --compare-mode side", 2, "--compare-mode needs the window");
  expect_clean_failure("run --gain 0", 2, "--gain wants a positive number");
  expect_clean_failure("run --headless --load-chain /nonexistent/p.json", 2, "--load-chain");
}

TEST(CliExit, NoDeviceExitsWith3) {
  expect_clean_failure("run --headless --size 32x32 --frames 1", 3, "Vulkan",
                       "VK_DRIVER_FILES=/nonexistent.json VK_ICD_FILENAMES=/nonexistent.json");
  expect_clean_failure("run --headless --size 32x32 --frames 1 --device no-such-gpu", 3,
                       "no Vulkan device matches --device 'no-such-gpu'");
}

TEST(CliExit, CorruptSpirvIsRefusedWithTheFileAndTheReasonEvenUnderValidation) {
  // The validation layer was seen to hang on such a module (3.5 GB after 20 s): SPIRV-Tools sees
  // it first, so the run ends at once whatever the layers.
  const std::string dir = filterlab::test::temp_dir("corrupt-spirv");
  std::filesystem::copy(FILTERLAB_SHADER_DIR, dir, std::filesystem::copy_options::recursive);
  const std::string spv = dir + "/filters/copy/copy.comp.fp16.spv";  // the default copy, fp16 images
  std::string bytes = slurp(spv);
  for (size_t i = 40; i < 48; ++i) bytes[i] = char(0xff);
  std::ofstream(spv, std::ios::binary | std::ios::trunc) << bytes;
  for (const char* validation : {"", " --validation"})
    expect_clean_failure(std::string("run --headless --size 32x32 --frames 1 --chain copy") + validation +
                             " --shader-dir " + dir,
                         2, "invalid SPIR-V " + spv);
  std::ofstream(spv, std::ios::binary | std::ios::trunc) << "seven b";  // not whole words
  expect_clean_failure("run --headless --size 32x32 --frames 1 --chain copy --shader-dir " + dir, 2,
                       "not a whole number of words");
  std::filesystem::remove_all(dir);
}

TEST(CliExit, OutputsAreCheckedByCreatingThemNotByPermissionBits) {
  // Root passes access(W_OK) everywhere; /proc takes no new files even from root.
  expect_clean_failure("run --headless --size 32x32 --frames 1 --capture final=/proc/x.png", 2,
                       "cannot write /proc/x.png");
  expect_clean_failure("run --headless --size 32x32 --frames 1 --timings /proc/t.json", 2,
                       "cannot write /proc/t.json");
  expect_clean_failure("compare a.pfm b.pfm --json /proc/m.json", 2, "cannot write /proc/m.json");
  const std::string dir = filterlab::test::temp_dir("unwritable");
  std::filesystem::create_directory(dir + "/r.html");
  expect_clean_failure("report x.json --out " + dir + "/r.html", 2, "is a folder");
  std::filesystem::remove_all(dir);
}

TEST(CliExit, KernelsThatAreNotWeightedMeansAreRefused) {
  // The tent's weights must be non-negative with a positive sum: a negative corner weight is bad
  // input, named, before any GPU work; so are a statistic a method does not compute and values
  // out of range.
  expect_clean_failure("run --headless --size 32x32 --frames 1 --chain tent:radius=2:k=1:b=1", 2,
                       "make a weight negative");
  expect_clean_failure("run --headless --size 32x32 --frames 1 --chain variance.comp.stream:output=min", 2,
                       "min and max do not");
  expect_clean_failure("run --headless --size 32x32 --frames 1 --chain variance:output=median", 2, "median");
  expect_clean_failure("run --headless --size 32x32 --frames 1 --chain bilateral:sigma_r=0", 2, "sigma_r");
}

TEST(CliExit, ReportRefusesFoldersAndFilesThatAreNotBenchJson) {
  const std::string dir = filterlab::test::temp_dir("report-bad");
  std::ofstream(dir + "/image.png", std::ios::binary) << std::string("\x89PNG\r\n\x1a\n\x01\x02\xfe\xff", 12);
  expect_clean_failure("report " + dir + " --out " + dir + "/r.html", 2, "is not a file");
  auto r = run_binary("report " + dir + "/image.png --out " + dir + "/r.html");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("not a bench JSON file"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("\x89PNG"), std::string::npos) << "the file's bytes in the message: " << r.output;
  EXPECT_FALSE(std::filesystem::exists(dir + "/r.html"));
  std::filesystem::remove_all(dir);
}

TEST(CliExit, BrokenShaderSourceFailsWithTheCompilerMessage) {
  const std::string dir = filterlab::test::temp_dir("broken-source");
  std::filesystem::copy(FILTERLAB_SHADER_SOURCE_DIR, dir, std::filesystem::copy_options::recursive);
  std::ofstream(dir + "/passes/tonemap.comp")
      << "#version 460\n//! variant fixed\n//! variant auto AUTO_EXPOSURE\nvoid main() { oops }\n";
  expect_clean_failure("run --headless --size 32x32 --frames 1 --shader-source " + dir, 2, "tonemap.comp:4");
  // One line: the first message and the counts (the log spanned many; issue #54).
  auto r = run_binary("run --headless --size 32x32 --frames 1 --shader-source " + dir);
  std::string output = r.output;
  while (!output.empty() && output.back() == '\n') output.pop_back();
  EXPECT_EQ(output.find('\n'), std::string::npos) << r.output;
  EXPECT_NE(output.find("tonemap.comp (fixed): 2 error(s), 0 warning(s)"), std::string::npos) << r.output;
  EXPECT_NE(output.find("nothing was run"), std::string::npos) << r.output;
  std::filesystem::remove_all(dir);
}

TEST(CliExit, RunsAreDeterministicByteForByte) {
  const std::string dir = filterlab::test::temp_dir("determinism");
  std::string outputs[2];
  for (int run = 0; run < 2; ++run) {
    const std::string prefix = dir + "/" + std::to_string(run);
    auto r = run_binary(
        "run --headless --validation --size 120x80 --frames 2 --warmup 1 --chain copy --jitter" +
        (" --capture final=" + prefix + "-final.png") + (" --capture scene=" + prefix + "-scene.pfm") +
        (" --capture depth=" + prefix + "-depth.png") + (" --capture motion=" + prefix + "-motion.pfm") +
        (" --timings " + prefix + ".json"));
    ASSERT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("tonemap"), std::string::npos) << r.output;  // the table
    for (const char* name : {"-final.png", "-scene.pfm", "-depth.png", "-motion.pfm"}) {
      const std::string bytes = slurp(prefix + name);
      EXPECT_GT(bytes.size(), 1000u) << name;
      outputs[run] += bytes;
    }
  }
  EXPECT_EQ(outputs[0], outputs[1]);
  std::filesystem::remove_all(dir);
}

TEST(CliExit, RuntimeShaderCompilationMatchesBuildTimeSpirv) {
  const std::string dir = filterlab::test::temp_dir("runtime-glsl");
  auto a = run_binary(
      "run --headless --validation --size 64x48 --frames 1 --warmup 0 --capture final=" + dir + "/a.png");
  auto b = run_binary("run --headless --validation --size 64x48 --frames 1 --warmup 0 --shader-source " +
                      std::string(FILTERLAB_SHADER_SOURCE_DIR) + " --capture final=" + dir + "/b.png");
  ASSERT_EQ(a.exit_code, 0) << a.output;
  ASSERT_EQ(b.exit_code, 0) << b.output;
  EXPECT_EQ(slurp(dir + "/a.png"), slurp(dir + "/b.png"));
  std::filesystem::remove_all(dir);
}

TEST(CliExit, InfoReportsTheDeviceFacts) {
  auto r = run_binary("info --validation");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  for (const char* field : {"subgroup size", "max compute shared memory", "timestamp valid bits",
                            "shaderFloat16", "compute shader derivatives"})
    EXPECT_NE(r.output.find(field), std::string::npos) << field;
}
