// tier: smoke
// The robustness suite: bad input of every kind the command line takes, each run through the command
// that reads it, with no Vulkan driver at all (VK_DRIVER_FILES names nothing). Every case must end
// with exit 2 and one line, write nothing, and never reach the device: with no driver, a command
// that got as far as choosing a device would exit 3 instead. A FIFO, /dev/zero or a sparse 20 GB
// file must be refused at once (each run is killed after 20 s, which then fails the case).
#include "gpu_test_util.h"
#include "test_files.h"

#include "io/image_io.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <functional>

namespace fs = std::filesystem;
using filterlab::test::big_endian;
using filterlab::test::png_chunk;

namespace {

constexpr const char* kNoDriver =
    "VK_DRIVER_FILES=/nonexistent.json VK_ICD_FILENAMES=/nonexistent.json timeout -s KILL 20";

struct BadCase {
  std::string what;      // the kind of input and the defect
  std::string args;      // the command line
  std::string fragment;  // a piece of the one line it must print
  std::string env;       // besides kNoDriver
};

void write(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

// Every file under `dir`, for "nothing written".
std::set<std::string> listing(const std::string& dir) {
  std::set<std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) files.insert(entry.path().string());
  return files;
}

// A PNG of chunks, the signature first.
std::string png(const std::vector<std::string>& chunks) {
  std::string bytes = "\x89PNG\r\n\x1a\n";
  for (const std::string& c : chunks) bytes += c;
  return bytes;
}

std::string ihdr(uint32_t width, uint32_t height, uint8_t bit_depth, uint8_t colour_type) {
  return png_chunk("IHDR", big_endian(width) + big_endian(height) +
                               std::string{char(bit_depth), char(colour_type), 0, 0, 0});
}

// The bad images: (file name, bytes, what the line says). Headers that read fine and bodies that
// do not are the cases that used to reach the device before being refused.
std::vector<std::tuple<std::string, std::string, std::string>> bad_images(const std::string& dir) {
  filterlab::io::ImageU8 image{8, 8, std::vector<uint8_t>(8 * 8 * 4, 99)};
  filterlab::io::write_png(dir + "/model.png", image);
  const std::string good = slurp(dir + "/model.png");
  fs::remove(dir + "/model.png");
  const size_t idat = good.find("IDAT") - 4, iend = good.rfind("IEND") - 4;
  const uint32_t idat_length = uint32_t(iend - idat - 12);
  const std::string idat_data = good.substr(idat + 8, idat_length);
  std::string bad_crc = good;
  bad_crc[iend - 1] ^= 1;
  std::string bad_zlib_data = idat_data;
  bad_zlib_data[bad_zlib_data.size() - 1] ^= 0x55;  // the Adler-32, with a chunk CRC that agrees
  const std::string header = good.substr(0, idat);
  const std::string jpeg = filterlab::test::noise_jpeg(24, 16);
  filterlab::io::write_exr(dir + "/model.exr",
                           filterlab::io::ImageF{8, 8, 3, std::vector<float>(8 * 8 * 3, 0.5f)},
                           filterlab::io::ExrSamples::Half);
  const std::string exr = slurp(dir + "/model.exr");
  fs::remove(dir + "/model.exr");
  std::string wide_exr = exr;  // the data window widened past 16384 pixels in the header
  const size_t window = wide_exr.find(std::string("dataWindow\0box2i\0", 17));
  const int32_t x_max = 20000;
  std::memcpy(&wide_exr[window + 17 + 4 + 8], &x_max, 4);
  return {
      {"crc.png", bad_crc, "invalid chunk checksum"},
      {"zlib.png", header + png_chunk("IDAT", bad_zlib_data) + png_chunk("IEND", ""), "invalid PNG"},
      {"truncated.png", good.substr(0, idat + 8 + idat_length / 2), "invalid PNG"},
      {"ihdr-lies.png", png({ihdr(64, 64, 8, 6), png_chunk("IDAT", idat_data), png_chunk("IEND", "")}),
       "invalid PNG"},
      {"no-iend.png", good.substr(0, iend), "invalid PNG"},
      {"no-plte.png", png({ihdr(8, 8, 8, 3), png_chunk("IDAT", idat_data), png_chunk("IEND", "")}),
       "invalid PNG"},
      {"empty.png", "", "invalid PNG"},
      {"truncated.jpg", jpeg.substr(0, jpeg.size() / 2), "invalid JPEG"},
      {"garbage.jpg", "\xff\xd8\xff garbage", "invalid JPEG"},
      {"empty.jpg", "", "invalid JPEG"},
      {"short.pfm", "PF\n4 4\n-1.0\n1234", "invalid PFM"},
      {"nan-size.pfm", "PF\nnan 4\n-1.0\n", "invalid PFM"},
      {"truncated.exr", exr.substr(0, exr.size() - 16), "invalid OpenEXR"},
      {"garbage.exr", exr.substr(0, 8) + std::string(64, 'x'), "invalid OpenEXR"},
      {"empty.exr", "", "no OpenEXR magic number"},
      {"wide.exr", wide_exr, "maximum width of 16384"},
  };
}

class BadInputs : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = filterlab::test::temp_dir("bad-inputs");
    ASSERT_EQ(::mkfifo((dir_ + "/fifo.png").c_str(), 0600), 0);
    for (const char* name : {"fifo.jpg", "fifo.pfm", "fifo.json", "fifo.spv"})
      fs::create_symlink(dir_ + "/fifo.png", dir_ + "/" + name);  // a link to it: followed, then refused
    {  // 20 GB of nothing, as a JPEG: a hole, so it takes no disk
      std::ofstream(dir_ + "/sparse.jpg");
      ASSERT_EQ(::truncate((dir_ + "/sparse.jpg").c_str(), 20ll << 30), 0);
    }
    fs::create_symlink("/dev/zero", dir_ + "/zero.jpg");
    fs::create_directory(dir_ + "/folder.png");
    filterlab::io::write_pfm(dir_ + "/ok.pfm", {9, 7, 3, std::vector<float>(9 * 7 * 3, 0.5f)});
    filterlab::io::write_png(dir_ + "/ok.png", {9, 7, std::vector<uint8_t>(9 * 7 * 4, 128)});
    out_ = dir_ + "/out";
    fs::create_directory(out_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  void expect_refused(const BadCase& c) {
    const std::set<std::string> before = listing(dir_);
    // From inside dir_, with its config folders there: a relative output or a default folder
    // (screenshots/, ~/.config/filterlab/tune/) would show in the listing too.
    const auto r = filterlab::test::run_binary(c.args, "cd " + dir_ + " && HOME=" + dir_ +
                                                           "/home XDG_CONFIG_HOME=" + dir_ + "/config " +
                                                           c.env + " " + kNoDriver);
    SCOPED_TRACE(c.what + ": filterlab " + c.args);
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find(c.fragment), std::string::npos) << r.output;
    EXPECT_TRUE(r.output.starts_with("filterlab: ")) << r.output;
    EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1) << "one line: " << r.output;
    EXPECT_EQ(listing(dir_), before) << "a file or folder was written";
  }

  std::string dir_, out_;
};

// Files that are not regular (a FIFO, through a link too; a folder; /dev/zero), too large (a sparse
// 20 GB file) or missing, as every file input the command line takes.
TEST_F(BadInputs, FilesThatAreNotRegularOrAreTooLargeAreRefusedAtOnce) {
  const std::string o = " --output " + out_ + "/o.png";
  const std::vector<std::pair<std::string, std::string>> files = {
      {"fifo.png", "FIFO"},
      {"fifo.jpg", "FIFO"},
      {"fifo.pfm", "FIFO"},
      {"zero.jpg", "device"},
      {"sparse.jpg", "20480 MiB"},
      {"folder.png", "folder"},
      {"missing.png", "No such file"},
  };
  for (const auto& [file, why] : files) {
    const std::string path = dir_ + "/" + file;
    expect_refused({"filter --input " + file, "filter --input " + path + o + " --method comp.tiled", why});
    expect_refused({"compare A " + file, "compare " + path + " " + dir_ + "/ok.pfm", why});
    expect_refused({"compare B " + file, "compare " + dir_ + "/ok.pfm " + path, why});
    if (file.ends_with(".png") || file.ends_with(".pfm"))
      expect_refused(
          {"kernel " + file, "run --headless --size 32x32 --frames 1 --chain convolve:kernel=" + path, why});
  }
  expect_refused({"tune table FIFO", "run --headless --size 32x32 --frames 1 --chain gaussian.auto", "FIFO",
                  "FILTERLAB_TUNE=" + dir_ + "/fifo.json"});
  expect_refused({"tune table folder", "run --headless --size 32x32 --frames 1 --chain gaussian.auto",
                  "folder", "FILTERLAB_TUNE=" + dir_ + "/folder.png"});
  expect_refused({"report input FIFO", "report " + dir_ + "/fifo.json --out " + out_ + "/r.html", "FIFO"});
}

// Bodies that only a full decode finds wrong: refused before the device is opened.
TEST_F(BadInputs, CorruptImagesAreRefusedBeforeTheDevice) {
  for (const auto& [name, bytes, why] : bad_images(dir_)) {
    write(dir_ + "/" + name, bytes);
    expect_refused(
        {"filter " + name,
         "filter --input " + dir_ + "/" + name + " --output " + out_ + "/o.png --method comp.tiled", why});
    expect_refused({"compare " + name, "compare " + dir_ + "/" + name + " " + dir_ + "/ok.png", why});
    expect_refused(
        {"run --image " + name,
         "run --headless --frames 1 --image " + dir_ + "/" + name + " --capture final=" + out_ + "/f.png",
         why});
    if (name.ends_with(".png") || name.ends_with(".pfm"))
      expect_refused({"kernel " + name,
                      "filter --input " + dir_ + "/ok.pfm --output " + out_ +
                          "/o.pfm --filter convolve --param kernel=" + dir_ + "/" + name,
                      why});
  }
}

TEST_F(BadInputs, TuneTablesThatAreNotTablesNameTheFileAndTheField) {
  const std::string table = dir_ + "/tune.json";
  const std::string head =
      R"({"schema": "filterlab.tune/1", "device": "d", "driver": "v", "size": [64, 64], )";
  const std::vector<std::tuple<std::string, std::string, std::string>> tables = {
      {"empty", "", "JSON: syntax error"},
      {"garbage", "not json at all", "JSON: syntax error"},
      {"an array", "[1, 2]", "top level: not an object"},
      {"wrong schema", R"({"schema": "filterlab.tune/0"})", "schema: not filterlab.tune/1"},
      {"no device", R"({"schema": "filterlab.tune/1"})", "device: missing"},
      {"size of text", R"({"schema": "filterlab.tune/1", "device": "d", "driver": "v", "size": "big"})",
       "size:"},
      {"families a list", head + R"("families": [1]})", "families: not an object"},
      {"no key", head + R"("families": {"gaussian": {"fp16": {}}}})", "families.gaussian.key: missing"},
      {"key not a number",
       head + R"("families": {"gaussian": {"key": "radius", "fp16": {"three": ["comp.tiled"]}}}})",
       "families.gaussian.fp16.three: the key is not a whole number"},
      {"methods not names", head + R"("families": {"gaussian": {"key": "radius", "fp16": {"3": [1, 2]}}}})",
       "families.gaussian.fp16.3[]: not a string"},
      {"a third precision", head + R"("families": {"gaussian": {"key": "radius", "fp64": {}}}})",
       "families.gaussian.fp64: not fp16 or fp32"},
  };
  for (const auto& [what, text, field] : tables) {
    write(table, text);
    for (const std::string& command : std::vector<std::string>{
             "run --headless --size 32x32 --frames 1 --chain gaussian.auto",
             "bench --sizes 16x16 --frames 1 --methods auto", "quality --size 16x16",
             "filter --input " + dir_ + "/ok.pfm --output " + out_ + "/o.pfm --method auto"})
      expect_refused({"tune table: " + what, command, table + ": not a filterlab tune table (" + field,
                      "FILTERLAB_TUNE=" + table});
  }
}

TEST_F(BadInputs, ShaderFoldersMissingAFileAreRefusedBeforeTheDevice) {
  const std::string spirv = dir_ + "/spirv", source = dir_ + "/source";
  fs::copy(FILTERLAB_SHADER_DIR, spirv, fs::copy_options::recursive);
  fs::copy(FILTERLAB_SHADER_SOURCE_DIR, source, fs::copy_options::recursive);
  const std::string run = "run --headless --size 32x32 --frames 1 --chain copy";
  const std::string copy = spirv + "/filters/copy/copy.comp.fp16.spv";
  const std::string words = slurp(copy);
  expect_refused({"no such --shader-dir", run + " --shader-dir " + dir_ + "/nothing", "not a folder"});
  fs::remove(copy);
  expect_refused({"a SPIR-V file missing", run + " --shader-dir " + spirv, copy + ": No such file"});
  write(copy, "");
  expect_refused(
      {"an empty SPIR-V file", run + " --shader-dir " + spirv, "0 bytes, not a whole number of words"});
  write(copy, words.substr(0, words.size() - 3));
  expect_refused({"a truncated SPIR-V file", run + " --shader-dir " + spirv, "not a whole number of words"});
  write(copy, std::string(64, 'x'));
  expect_refused({"not SPIR-V", run + " --shader-dir " + spirv, "no SPIR-V magic number"});
  fs::remove(copy);
  fs::create_symlink(dir_ + "/fifo.png", copy);
  for (const char* command :
       {"bench --sizes 16x16 --frames 1", "quality --size 16x16", "evaluate --size 16x16 --frames 1"})
    expect_refused({"a FIFO for SPIR-V", std::string(command) + " --shader-dir " + spirv, "FIFO"});
  expect_refused({"no such --shader-source", run + " --shader-source " + dir_ + "/nothing", "not a folder"});
  fs::remove(source + "/passes/tonemap.comp");
  expect_refused({"a source missing", run + " --shader-source " + source, "tonemap.comp: No such file"});
}

TEST_F(BadInputs, ChainsImagesAndStillImagesAreCheckedBeforeTheDevice) {
  const std::string run = "run --headless --size 32x32 --frames 1 ";
  const std::string filter = "filter --input " + dir_ + "/ok.pfm --output " + out_ + "/o.pfm ";
  const std::vector<BadCase> cases = {
      {"a trailing dot", run + "--chain copy.", "has a '.' but no method"},
      {"an empty step", run + "--chain copy,,copy", "empty step"},
      {"an unknown family", run + "--chain blur", "unknown filter 'blur'"},
      {"an unknown parameter", run + "--chain gaussian.comp.tiled:radiu=3", "radiu"},
      {"a parameter twice", run + "--chain gaussian.comp.tiled:radius=3:radius=4", "given twice"},
      {"a non-finite value", run + "--chain gaussian.comp.tiled:sigma=nan", "sigma"},
      {"an infinite value", run + "--chain gaussian.comp.tiled:sigma=inf", "sigma"},
      {"out of range", run + "--chain gaussian.comp.tiled:radius=100000", "radius"},
      {"an unknown capture", run + "--capture nothing=" + out_ + "/n.png", "no image named 'nothing'"},
      {"a capture of a step not in the chain", run + "--chain copy --capture gaussian=" + out_ + "/g.png",
       "no image named 'gaussian'"},
      {"an unknown viewport", "run --frames 1 --viewport nowhere", "no image named 'nowhere'"},
      {"a bad compare chain", "run --frames 1 --compare copy.", "has a '.' but no method"},
      {"TAA on a still image", filter + "--filter taa", "a still image has no depth"},
      {"an unwritable output", "filter --input " + dir_ + "/ok.pfm --output /proc/o.pfm --method comp.tiled",
       "cannot write /proc/o.pfm"},
      {"an unwritable screenshot folder", "run --frames 1 --screenshot-dir /proc/shots", "--screenshot-dir"},
      {"a screenshot folder under a file", "run --frames 1 --screenshot-dir " + dir_ + "/ok.pfm/shots",
       "is not a folder"},
  };
  for (const BadCase& c : cases) expect_refused(c);
}

TEST_F(BadInputs, ReportsReadOnlyPngCapturesInsideTheJsonsFolder) {
  // A bench file of one case, whose capture field is the only thing that changes.
  const std::string json_dir = dir_ + "/shared";
  fs::create_directory(json_dir);
  fs::create_directory(json_dir + "/captures");
  filterlab::io::write_png(json_dir + "/captures/c.png", {4, 4, std::vector<uint8_t>(64, 200)});
  auto bench_json = [&](const std::string& capture) {
    return R"({"schema": "filterlab.bench/3", "device": {"name": "d"}, "timings_are": "gpu", "floor_filter": "copy",
      "cases": [{"filter": "copy", "method": "comp.copy", "stage": "compute", "precision": "fp16", "radius": 0,
      "width": 8, "height": 8, "median_us": 1, "copy_ratio": 1, "exact": true, "floor": true},
      {"filter": "gaussian", "method": "comp.tiled", "stage": "compute", "precision": "fp16", "radius": 1,
      "width": 8, "height": 8, "median_us": 2, "copy_ratio": 2, "exact": true, "floor": false, "capture": )" +
           capture + "}]}";
  };
  write(json_dir + "/secret.txt", "not for sharing");
  write(json_dir + "/not-png.png", "not a png");
  ASSERT_EQ(::mkfifo((json_dir + "/fifo-capture.png").c_str(), 0600), 0);
  fs::create_symlink("/etc/hostname", json_dir + "/hostname.png");
  const std::vector<std::pair<std::string, std::string>> captures = {
      {R"("/etc/hostname")", "is not a path relative to the JSON's folder"},
      {R"("../ok.png")", "lies outside the JSON's folder"},
      {R"("captures/../../ok.png")", "lies outside the JSON's folder"},
      {R"("hostname.png")", "lies outside the JSON's folder"},
      {R"("secret.txt")", "is not a .png file"},
      {R"("not-png.png")", "no PNG signature"},
      {R"("fifo-capture.png")", "FIFO"},
      {R"(42)", "capture is not a file name"},
  };
  for (const auto& [capture, why] : captures) {
    write(json_dir + "/b.json", bench_json(capture));
    expect_refused({"capture " + capture, "report " + json_dir + "/b.json --out " + out_ + "/r.html", why});
  }
  // The capture bench writes, and one outside the folder that the user names.
  write(json_dir + "/b.json", bench_json(R"("captures/c.png")"));
  auto ok = filterlab::test::run_binary("report " + json_dir + "/b.json --out " + out_ + "/r.html");
  EXPECT_EQ(ok.exit_code, 0) << ok.output;
  EXPECT_NE(slurp(out_ + "/r.html").find("data:image/png;base64,"), std::string::npos);
  write(json_dir + "/b.json", bench_json(R"("../ok.png")"));
  ok = filterlab::test::run_binary("report " + json_dir + "/b.json --out " + out_ +
                                   "/r2.html --captures-from " + dir_);
  EXPECT_EQ(ok.exit_code, 0) << ok.output;
  EXPECT_NE(slurp(out_ + "/r2.html").find("data:image/png;base64,"), std::string::npos);
  fs::remove(out_ + "/r.html");
  fs::remove(out_ + "/r2.html");
}

TEST_F(BadInputs, BenchFilesWithAFieldOfTheWrongKindNameTheField) {
  const std::string head =
      R"({"schema": "filterlab.bench/3", "device": {"name": "d"}, "timings_are": "gpu", )";
  const std::string a_case =
      R"({"filter": "copy", "method": "comp.copy", "stage": "compute", "precision": "fp16", "radius": 0,
      "width": 8, "height": 8, "median_us": 1})";
  const std::vector<std::pair<std::string, std::string>> files = {
      {R"([1, 2])", "schema:"},
      {R"({"schema": 3})", "schema: type must be string"},
      {R"({"schema": "filterlab.bench/3", "device": "d"})", "device.name:"},
      {head + R"("cases": {}})", "cases: not a list"},
      // The family's size parameter, read where the registry knows the family.
      {head + R"("cases": [)" + a_case +
           R"(, {"filter": "gaussian", "method": "comp.tiled", "stage": "compute",
          "precision": "fp16", "width": 8, "height": 8, "median_us": 1, "radius": "three"}]})",
       "cases[1].radius: type must be number"},
      {head + R"("cases": [{"filter": "copy"}]})", "cases[0].method: key 'method' not found"},
      {head + R"("cases": [)" + a_case.substr(0, a_case.size() - 1) + R"(, "exact": "yes"}]})",
       "cases[0].exact:"},
  };
  for (const auto& [text, field] : files) {
    write(dir_ + "/b.json", text);
    expect_refused({"bench file " + text, "report " + dir_ + "/b.json --out " + out_ + "/r.html",
                    dir_ + "/b.json: not a filterlab bench file: " + field});
  }
}

TEST_F(BadInputs, EvaluationPlottedValueThatIsNotAFiniteNumberIsBadInput) {
  auto file = [&](const std::string& plotted) {
    write(dir_ + "/t.json",
          R"({"schema": "filterlab.evaluation/1", "title": "T", "plotted_param": "gamma", "device": "d",
              "size": [16, 16], "reference_offsets": 4, "sequences": [{"sequence": "still", "configs": [
              {"config": "c", "chain": "", "plotted": )" +
              plotted + R"(, "psnr": [30, 31], "psnr_last": 31, "flicker": 0.01}]}]})");
  };
  const std::string report = "report " + dir_ + "/t.json --out " + out_ + "/r.html";
  for (const char* plotted : {R"("x")", "[1]", R"({})"}) {
    file(plotted);
    expect_refused({std::string("plotted ") + plotted, report,
                    dir_ + "/t.json: not an evaluation file: missing or malformed field"});
  }
  file("1e999");  // beyond double: refused as it is read
  expect_refused(
      {"plotted 1e999", report, dir_ + "/t.json is not a bench JSON file (a number out of range)"});
}

// What the checks must not refuse: with no driver, a command they let through reaches the device
// and exits 3.
// run --image: what a still image cannot give is refused by name, before any device.
TEST_F(BadInputs, RunImageRefusesWhatAStillImageCannotGive) {
  const std::string run = "run --headless --frames 1 --image " + dir_ + "/ok.png";
  expect_refused({"a chain that reads depth", run + " --chain taa", "a still image has no depth"});
  expect_refused({"chain B reads motion",
                  "run --image " + dir_ + "/ok.png --compare bigblur.comp.mip_poisson_temporal",
                  "a still image has no motion"});
  expect_refused(
      {"a capture of depth", run + " --capture depth=" + out_ + "/d.png", "no image named 'depth'"});
  expect_refused({"not an image", "run --headless --image " + dir_ + "/ok.txt", "unsupported file type"});
  expect_refused({"no such image", "run --headless --image " + dir_ + "/missing.exr", "No such file"});
}

TEST_F(BadInputs, GoodInputGetsPastTheChecksToTheDevice) {
  auto reaches_the_device = [&](const std::string& args, const std::string& env = "") {
    const auto r = filterlab::test::run_binary(args, "cd " + dir_ + " && " + env + " " + kNoDriver);
    EXPECT_EQ(r.exit_code, 3) << args << "\n" << r.output;
  };
  write(dir_ + "/stale.json", "a table no command here reads");
  const std::string stale = "FILTERLAB_TUNE=" + dir_ + "/stale.json";
  reaches_the_device("run --headless --size 32x32 --frames 1 --chain copy", stale);  // no auto step
  reaches_the_device("evaluate --size 16x16 --frames 1", stale);
  reaches_the_device("tune --size 16x16 --frames 1 --output " + out_ + "/t.json", stale);  // it replaces it
  reaches_the_device("methods", stale + " VK_NOTHING=1");
  fs::create_symlink(dir_ + "/not-yet.json", dir_ + "/dangling.json");  // tune fills it later
  reaches_the_device("run --headless --size 32x32 --frames 1 --chain gaussian.auto",
                     "FILTERLAB_TUNE=" + dir_ + "/dangling.json");
  // The window's own images and chain B's, under "b.".
  reaches_the_device("run --frames 1 --compare copy --capture b.final=" + out_ +
                     "/b.png --capture b.copy=" + out_ + "/c.png --capture viewport=" + out_ + "/v.png");
}

TEST_F(BadInputs, ARefusedTuneLeavesNoFolderBehind) {
  const std::string config = dir_ + "/config";
  expect_refused({"tune of an unknown family", "tune --filter nothing", "unknown filter 'nothing'",
                  "XDG_CONFIG_HOME=" + config});
  expect_refused({"tune of a family without auto", "tune --filter copy", "copy has no auto method",
                  "XDG_CONFIG_HOME=" + config});
  expect_refused({"tune at a bad size", "tune --size 0x16", "--size", "XDG_CONFIG_HOME=" + config});
  expect_refused(
      {"tune with a bad key", "tune --filter gaussian --keys 0", "--keys", "XDG_CONFIG_HOME=" + config});
  expect_refused({"bench --tune, moved", "bench --tune", "filterlab tune", "XDG_CONFIG_HOME=" + config});
  EXPECT_FALSE(fs::exists(config));
}

}  // namespace
