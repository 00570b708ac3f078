// GPU tier, end to end through the binary: methods, filter, bench and quality, with validation on
// wherever the command takes it. Small sizes: these check plumbing and file formats; the per-method
// accuracy tests live in blur_*_test.cpp.
#include "gpu_test_util.h"
#include "test_files.h"

#include "common/flip.h"
#include "common/kernel.h"
#include "common/reference.h"
#include "filters/chain.h"
#include "io/image_files.h"

#include <turbojpeg.h>
#include <zlib.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <tuple>

using namespace filterlab;
using nlohmann::json;
using test::big_endian;
using test::noise_jpeg;
using test::png_chunk;

namespace {

json read_json(const std::string& path) {
  std::ifstream in(path);
  return json::parse(in);
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

// The first sample of a PNG's first row, from its bytes: IHDR's size, the zlib stream of its IDAT
// chunks inflated, the row's filter byte skipped (the first sample of a row is stored as it is
// under every filter but Up and Paeth, which the first row reads as zero above).
long first_sample_in_file(const std::string& path, uint32_t bits) {
  const std::string file = slurp(path);
  std::string idat;
  for (size_t at = 8; at + 12 <= file.size();) {
    const uint32_t length = uint32_t(uint8_t(file[at])) << 24 | uint32_t(uint8_t(file[at + 1])) << 16 |
                            uint32_t(uint8_t(file[at + 2])) << 8 | uint32_t(uint8_t(file[at + 3]));
    if (file.compare(at + 4, 4, "IDAT") == 0) idat += file.substr(at + 8, length);
    at += 12 + length;
  }
  std::vector<uint8_t> raw(1 << 20);
  uLongf size = raw.size();
  if (uncompress(raw.data(), &size, reinterpret_cast<const Bytef*>(idat.data()), idat.size()) != Z_OK)
    return -1;
  return bits == 16 ? long(raw[1]) << 8 | raw[2] : raw[1];
}

}  // namespace

TEST(Commands, MethodsJsonListsEveryMethodWithAvailability) {
  auto r = test::run_binary("methods --json --validation");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const json j = json::parse(r.output);
  std::set<std::string> listed;
  for (const json& m : j.at("methods")) {
    listed.insert(m.at("filter").get<std::string>() + "." + m.at("method").get<std::string>());
    for (const char* key :
         {"filter", "method", "stage", "exact", "available", "default", "description", "fetches_per_pixel"})
      EXPECT_TRUE(m.contains(key)) << m.dump() << " lacks " << key;
    // The family's default is marked, and only it.
    const filters::Family& owner = *filters::registry().find(m.at("filter").get<std::string>());
    EXPECT_EQ(m.at("default").get<bool>(), m.at("method") == owner.default_method) << m.dump();
    if (m.at("filter") == "copy") continue;
    EXPECT_TRUE(m.at("stage") == "fragment" || m.at("stage") == "compute") << m.dump();
    // The limits below are radii: a family without one (taa) lists no limit.
    const filters::Family& family = *filters::registry().find(m.at("filter").get<std::string>());
    if (!family.param("radius")) continue;
    if (m.at("available")) {
      EXPECT_GE(m.at("max_radius").get<int>(), 1) << m.dump();
      // No method serves beyond its family's schema.
      EXPECT_LE(m.at("max_radius").get<int>(), family.param("radius")->max) << m.dump();
    } else {
      EXPECT_FALSE(m.at("reason").get<std::string>().empty()) << m.dump();
    }
    // fp32 images: a limit where served, else the reason (half arithmetic serves fp16 only).
    if (m.at("max_radius_fp32").get<int>() == 0) {
      EXPECT_FALSE(m.at("reason_fp32").get<std::string>().empty()) << m.dump();
    }
    if (m.at("method") == "comp.separable_stream_half") {
      EXPECT_NE(m.at("reason_fp32").get<std::string>().find("fp16 images only"), std::string::npos);
    }
  }
  size_t registered = 0;
  for (const filters::Family* f : filters::registry().families())
    for (const filters::Method& m : f->methods) {
      EXPECT_TRUE(listed.count(f->name + "." + m.name)) << f->name << "." << m.name;
      ++registered;
    }
  EXPECT_EQ(listed.size(), registered);
  // The text marks each family's default and gives each method its line of description.
  auto text = test::run_binary("methods");
  ASSERT_EQ(text.exit_code, 0) << text.output;
  for (const filters::Family* f : filters::registry().families()) {
    if (f->default_method.empty()) continue;
    EXPECT_NE(text.output.find(f->name + "." + f->default_method + " (default)"), std::string::npos)
        << f->name;
  }
  EXPECT_NE(text.output.find(filters::registry().find("tent")->find("comp.running")->description),
            std::string::npos);
}

// `filterlab filters`: every method on a line of its own with its description, the default marked,
// an inexact one said to be so (once only the method names were listed).
TEST(Commands, FiltersListsEveryMethodWithItsDescriptionAndTheDefault) {
  auto r = test::run_binary("filters");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  for (const char* line : {"\n      auto (default): the fastest exact method",
                           "\n      comp.recursive (default) (not exact): Deriche's",
                           "\n      comp.fetch_x2 (default): the same, two pixels a thread",
                           "\n      frag.quad_derivative_coarse (not exact): "})
    EXPECT_NE(r.output.find(line), std::string::npos) << line;
  for (const filters::Family* family : filters::registry().families())
    for (const filters::Method& m : family->methods)
      EXPECT_NE(r.output.find("\n      " + m.name), std::string::npos) << family->name << "." << m.name;
  // A parameter named like one of filter's own options says how it is reached (variance's output).
  EXPECT_NE(r.output.find("on filter's command line --param output=VALUE (--output is filter's own)"),
            std::string::npos)
      << r.output;
  // ... and those options are filter's: its help lists each.
  const auto help = test::run_binary("filter --help");
  for (const char* option :
       {"--input", "--output", "--filter", "--method", "--param", "--raw", "--capture", "--png-format"})
    EXPECT_NE(help.output.find(option), std::string::npos) << option;
}

TEST(Commands, FilterPfmIsExactAgainstTheReference) {
  const std::string dir = test::temp_dir("filter-pfm");
  io::ImageF input = common::random_image(45, 29, 3, 21);
  io::write_pfm(dir + "/in.pfm", input);
  auto r = test::run_binary("filter --validation --input " + dir + "/in.pfm --output " + dir +
                            "/out.pfm --method frag.separable --radius 4 --kernel binomial --precision fp32");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const io::ImageF output = io::read_pfm(dir + "/out.pfm");
  common::KernelSpec spec;
  spec.type = common::KernelType::Binomial;
  spec.radius = 4;
  const common::ErrorStats e =
      common::compare(output, common::reference_blur(input, common::kernel_weights(spec)));
  EXPECT_LE(e.max_abs, 1e-5);
}

TEST(Commands, FilterPngDecodesSrgbUnlessRaw) {
  const std::string dir = test::temp_dir("filter-png");
  io::ImageU8 png{23, 17, {}};
  for (size_t i = 0; i < size_t(23) * 17 * 4; ++i) png.rgba.push_back(uint8_t((i * 37 + i / 4 * 11) % 256));
  io::write_png(dir + "/in.png", png);
  common::KernelSpec spec;
  spec.radius = 2;
  const std::vector<double> weights = common::kernel_weights(spec);
  for (bool raw : {false, true}) {
    auto r =
        test::run_binary("filter --validation --input " + dir + "/in.png --output " + dir +
                         "/out.png --method frag.full2d --radius 2 --precision fp32" + (raw ? " --raw" : ""));
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const io::Encoding encoding = raw ? io::Encoding::Raw : io::Encoding::Srgb;
    const common::ImageD expected =
        common::reference_blur(io::read_image_file(dir + "/in.png", encoding), weights);
    const io::ImageU8 out = io::read_png(dir + "/out.png");
    int worst = 0;
    for (size_t i = 0; i < out.rgba.size(); ++i) {
      // Filtered premultiplied, written straight: colour divided by the pixel's alpha.
      const double alpha = expected.pixels[i - i % 4 + 3];
      double v = i % 4 == 3                      ? expected.pixels[i]
                 : std::lround(alpha * 255) == 0 ? 0.0
                                                 : expected.pixels[i] / alpha;
      v = std::clamp(v, 0.0, 1.0);
      if (!raw && i % 4 != 3) v = io::linear_to_srgb(v);
      worst = std::max(worst, std::abs(int(out.rgba[i]) - int(std::lround(v * 255))));
    }
    EXPECT_LE(worst, 1) << (raw ? "raw" : "srgb");  // fp32 filtering, one 8-bit rounding step
  }
}

// A PNG output keeps the input's channels and bits (gray, gray+alpha, RGB, RGBA; 8 or 16), so that a
// 16-bit gray photograph does not come back as 8-bit RGBA with a constant alpha (which `compare`
// then counts); --png-format asks for another. Through the copy family at fp32, every sample comes
// back as it went in.
TEST(Commands, FilterPngKeepsTheInputsChannelsAndBits) {
  const std::string dir = test::temp_dir("filter-png-layout");
  const std::string floor = filters::registry().memory_floor().name;
  auto samples_of = [](const std::string& path) {
    const io::DecodedImage d = io::decode_png(path);
    return d.samples;
  };
  for (const char* name : {"gray8", "gray16", "graya8", "graya16", "rgb8", "rgb16", "rgba8", "rgba16"}) {
    const io::PngLayout layout = *io::parse_png_layout(name);
    io::ImageF image = common::random_image(19, 13, 4, 7);
    if (layout.channels <= 2)  // gray: R = G = B
      for (size_t p = 0; p < size_t(19) * 13; ++p)
        image.pixels[p * 4 + 1] = image.pixels[p * 4 + 2] = image.pixels[p * 4];
    io::write_image_file(dir + "/in.png", image, io::Encoding::Srgb, io::ExrSamples::Float, layout);
    const io::ImageHeader in = io::read_image_header(dir + "/in.png");
    ASSERT_EQ(io::png_layout_of(in).name(), name);
    // The file holds the samples the PNG format says (16-bit big-endian), read from its bytes here
    // without the decoder the filter uses.
    // A PNG with alpha holds straight colour: the image's (premultiplied) divided by its alpha.
    const bool alpha = layout.channels == 2 || layout.channels == 4;
    const double first = alpha ? std::min(1.0, double(image.pixels[0]) / image.pixels[3]) : image.pixels[0];
    EXPECT_EQ(first_sample_in_file(dir + "/in.png", layout.bits),
              std::lround(io::linear_to_srgb(first) * ((1 << layout.bits) - 1)))
        << name;
    auto r = test::run_binary("filter --validation --input " + dir + "/in.png --output " + dir +
                              "/out.png --filter " + floor + " --precision fp32");
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const io::ImageHeader out = io::read_image_header(dir + "/out.png");
    EXPECT_EQ(io::png_layout_of(out).name(), name);
    // Through premultiplied colour and back, a sample may move by one step where the division rounds.
    const std::vector<uint16_t> got = samples_of(dir + "/out.png"), want = samples_of(dir + "/in.png");
    ASSERT_EQ(got.size(), want.size()) << name;
    for (size_t i = 0; i < got.size(); ++i)
      EXPECT_LE(std::abs(int(got[i]) - int(want[i])), alpha ? 1 : 0) << name << " sample " << i;
  }
  auto r = test::run_binary("filter --validation --input " + dir + "/in.png --output " + dir +
                            "/out.png --filter " + floor + " --png-format gray16");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(io::png_layout_of(io::read_image_header(dir + "/out.png")).name(), "gray16");
  r = test::run_binary("filter --input " + dir + "/in.png --output " + dir + "/bad.png --png-format rgb12");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("rgba16"), std::string::npos) << r.output;
  EXPECT_FALSE(std::filesystem::exists(dir + "/bad.png"));
}

// `filter --capture NAME=FILE`: any image of the step, here both of a variance step's (it once took
// two runs); an image the step does not make is refused by name, listing the ones it makes, and
// nothing is written.
TEST(Commands, FilterCapturesMoreImagesOfTheStep) {
  const std::string dir = test::temp_dir("filter-capture");
  const io::ImageF input = common::random_image(21, 13, 3, 4);
  io::write_pfm(dir + "/in.pfm", input);
  auto r =
      test::run_binary("filter --validation --input " + dir + "/in.pfm --output " + dir +
                       "/mean.pfm --filter variance --method comp.full2d_shared --radius 2 --precision fp32 "
                       "--capture variance.stddev=" +
                       dir + "/sd.pfm");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const filters::Family& variance = *filters::registry().find("variance");
  for (const auto& [file, output] : {std::pair{"/mean.pfm", "mean"}, std::pair{"/sd.pfm", "stddev"}}) {
    const filters::FilterStep step{"variance", "frag.full2d", {{"radius", "2"}, {"output", output}}, ""};
    const common::ErrorStats e =
        common::compare(io::read_pfm(dir + file), variance.reference(input, filters::resolve(step).params));
    EXPECT_LE(e.max_abs, 1e-3) << output;  // the family's fp32 bounds: 1e-5 (mean), 1e-3 (stddev, 5x5)
  }
  auto bad = test::run_binary("filter --input " + dir + "/in.pfm --output " + dir +
                              "/x.pfm --filter variance --capture variance.sd=" + dir + "/y.pfm");
  EXPECT_EQ(bad.exit_code, 2) << bad.output;
  EXPECT_NE(bad.output.find("makes no image 'variance.sd'; it makes variance.mean, variance.stddev"),
            std::string::npos)
      << bad.output;
  EXPECT_FALSE(std::filesystem::exists(dir + "/x.pfm"));
  EXPECT_FALSE(std::filesystem::exists(dir + "/y.pfm"));
  auto twice = test::run_binary("filter --input " + dir + "/in.pfm --output " + dir +
                                "/x.pfm --capture a=" + dir + "/x.pfm");
  EXPECT_EQ(twice.exit_code, 2) << twice.output;
  EXPECT_NE(twice.output.find("is the --output file too"), std::string::npos) << twice.output;
}

TEST(Commands, FilterRejectsBadInputWithExit2AndNoOutput) {
  const std::string dir = test::temp_dir("filter-bad");
  { std::ofstream(dir + "/corrupt.png") << "not a png"; }
  { std::ofstream(dir + "/truncated.pfm") << "PF\n10 10\n-1.0\n1234"; }
  io::write_pfm(dir + "/ok.pfm", common::random_image(20, 10, 3, 1));
  const std::string out = dir + "/out.png";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"--input " + dir + "/corrupt.png --output " + out + " --method frag.full2d", "cannot read"},
      {"--input " + dir + "/truncated.pfm --output " + out + " --method frag.full2d", "cannot read"},
      {"--input " + dir + "/missing.png --output " + out + " --method frag.full2d", "cannot read"},
      {"--input " + dir + "/ok.pfm --output " + dir + "/out.gif --method frag.full2d",
       "unsupported file type"},
      {"--input " + dir + "/ok.pfm --output " + out + " --method frag.none", "unknown method"},
      {"--input " + dir + "/ok.pfm --output " + out + " --method frag.full2d --radius 0", "radius wants"},
      {"--input " + dir + "/ok.pfm --output " + out + " --method frag.full2d --sigma x", "sigma wants"},
      {"--output " + out + " --method frag.full2d", "needs --input"},
      // --output is the file, always: the variance's `output` parameter is reached with --param.
      {"--input " + dir + "/ok.pfm --filter variance --output stddev", "set with --param output=stddev"},
      {"--input " + dir + "/ok.pfm --output " + out +
           " --method frag.full2d --src-roi 0,0,5,5 --dst-roi 0,0,5,5",
       "src_roi is for comp.tiled"},
      {"--input " + dir + "/ok.pfm --output " + out + " --method frag.full2d --bogus",
       "unknown option '--bogus'"},
      {"--input " + dir + "/ok.pfm --output " + out +
           " --method comp.tiled --src-roi 15,0,10,5 --dst-roi 0,0,10,5",
       "src_roi 10x5+15+0 does not fit in the 20x10 image"},
  };
  for (const auto& [args, message] : cases) {
    auto r = test::run_binary("filter " + args);
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.output;
    EXPECT_NE(r.output.find(message), std::string::npos) << args << "\n" << r.output;
    EXPECT_FALSE(std::filesystem::exists(out)) << args;
  }
  // No method: the family's default, gaussian.auto, which says what it picked (issue #37: it once
  // stopped at "needs --method").
  {
    auto r = test::run_binary("filter --input " + dir + "/ok.pfm --output " + out);
    EXPECT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("gaussian.auto: "), std::string::npos) << r.output;
    EXPECT_TRUE(std::filesystem::exists(out));
    std::filesystem::remove(out);
  }
  // Damaged files, caught by their checksums or their ends; an output already there stays as it was.
  io::ImageU8 png{16, 16, std::vector<uint8_t>(16 * 16 * 4, 77)};
  io::write_png(dir + "/good.png", png);
  std::string bytes = slurp(dir + "/good.png");
  const size_t iend = bytes.rfind("IEND");
  bytes[iend - 5] ^= 1;  // the last byte of the IDAT chunk's CRC, before IEND's length and type
  std::ofstream(dir + "/bad-crc.png", std::ios::binary) << bytes;
  const std::string jpeg = noise_jpeg(32, 24);
  std::ofstream(dir + "/good.jpg", std::ios::binary) << jpeg;
  std::ofstream(dir + "/truncated.jpg", std::ios::binary) << jpeg.substr(0, jpeg.size() / 2);
  // Headers that promise more than a device takes: 20000x20000 (389 KB as a PNG of zeros, 9.4 GB
  // decoded) and 16385x1, past lavapipe's 16384.
  const std::string signature = "\x89PNG\r\n\x1a\n";
  std::ofstream(dir + "/huge.png", std::ios::binary)
      << signature +
             png_chunk("IHDR",
                       big_endian(20000) + big_endian(20000) + std::string("\x08\x00\x00\x00\x00", 5)) +
             png_chunk("IEND", "");
  {
    std::ofstream(dir + "/wide.pfm", std::ios::binary) << "PF\n16385 1\n-1.0\n"
                                                       << std::string(16385 * 12, '\0');
  }
  const std::string kept = dir + "/kept.png";
  std::ofstream(kept) << "an earlier output";
  ASSERT_EQ(
      test::run_binary("filter --input " + dir + "/good.jpg --output " + dir + "/ok.png --method frag.full2d")
          .exit_code,
      0);
  const std::vector<std::pair<std::string, std::string>> damaged = {
      {"bad-crc.png", "invalid PNG (invalid chunk checksum)"},
      {"truncated.jpg", "invalid JPEG"},
      {"huge.png", "huge.png: it is 20000x20000"},
      {"wide.pfm", "wide.pfm: it is 16385x1"},
  };
  for (const auto& [file, message] : damaged) {
    auto r = test::run_binary("filter --validation --input " + dir + "/" + file + " --output " + kept +
                              " --method frag.full2d");
    EXPECT_EQ(r.exit_code, 2) << file << "\n" << r.output;
    EXPECT_NE(r.output.find(message), std::string::npos) << file << "\n" << r.output;
    EXPECT_EQ(slurp(kept), "an earlier output") << file;
  }
  auto proc = test::run_binary("filter --input " + dir + "/ok.pfm --output /proc/x.png --method frag.full2d");
  EXPECT_EQ(proc.exit_code, 2) << proc.output;
  EXPECT_NE(proc.output.find("cannot write /proc/x.png"), std::string::npos) << proc.output;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    EXPECT_EQ(entry.path().string().find(".tmp"), std::string::npos) << "left behind: " << entry.path();
}

TEST(Commands, BenchWritesEveryFieldAndTheCopyFloor) {
  const std::string dir = test::temp_dir("bench");
  auto r = test::run_binary(
      "bench --validation --sizes 37x23 --radii 1,2 --methods frag.full2d,frag.separable "
      "--frames 4 --warmup 1 --warmup-ms 0 --inputs 3 --precision fp16,fp32 --quiet --json " +
      dir + "/b.json --csv " + dir + "/b.csv");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const json j = read_json(dir + "/b.json");
  for (const char* key : {"schema", "git_revision", "date", "device", "timings_are", "frames", "warmup",
                          "inputs", "floor_filter", "cases"})
    EXPECT_TRUE(j.contains(key)) << key;
  for (const char* key : {"name", "driver", "api_version", "timestamp_period_ns", "timestamp_valid_bits",
                          "pipeline_statistics"})
    EXPECT_TRUE(j["device"].contains(key)) << key;
  EXPECT_NE(j["timings_are"].get<std::string>().find("cpu"), std::string::npos)
      << "lavapipe timings are CPU timings";
  const filters::Family& floor_family = filters::registry().memory_floor();
  EXPECT_EQ(j["floor_filter"], floor_family.name);
  const size_t copy_methods = floor_family.methods.size();
  ASSERT_EQ(j["cases"].size(),
            2u * (copy_methods + 2 * 2));  // per precision: every copy + 2 radii x 2 methods
  int copies = 0, floors = 0;
  for (const json& c : j["cases"]) {
    for (const char* key :
         {"filter", "method", "stage", "params", "width", "height", "precision", "median_us", "p5_us",
          "p95_us", "gpixels_per_s", "copy_ratio", "floor", "fetches_per_pixel", "shared_reads_per_pixel",
          "shared_writes_per_pixel", "error", "passes", "pipelines"})
      EXPECT_TRUE(c.contains(key)) << key << " in " << c.dump();
    // Schema 2: a key per parameter of the family's schema that the method takes, typed; no other.
    EXPECT_EQ(j["schema"], "filterlab.bench/2");
    const filters::Family& family = *filters::registry().find(c["filter"].get<std::string>());
    for (const filters::Param& p : family.params)
      EXPECT_EQ(c.contains(p.name), p.takes(c["method"].get<std::string>())) << p.name << " in " << c.dump();
    if (c["filter"] != floor_family.name) {
      EXPECT_TRUE(c["radius"].is_number_integer()) << c.dump();
      EXPECT_TRUE(c["sigma"].is_number_float()) << c.dump();
      EXPECT_TRUE(c["kernel"].is_string()) << c.dump();
    }
    // The pipelines the case built, by shader; their compiler statistics only where the driver has
    // VK_KHR_pipeline_executable_properties (not lavapipe on Debian 12: checked on the H100).
    const std::string expected = c["filter"] == floor_family.name ? "filters/copy/copy."
                                 : c["method"] == "frag.full2d"   ? "gaussian/window.frag"
                                                                  : "frag_separable";
    ASSERT_EQ(c["pipelines"].size(), c["method"] == "frag.separable" ? 2u : 1u)
        << c.dump();  // one per direction
    for (const json& p : c["pipelines"])
      EXPECT_NE(p["name"].get<std::string>().find(expected), std::string::npos) << c.dump();
    EXPECT_EQ(c["pipelines"][0]["statistics"].empty(), !j["device"]["pipeline_statistics"].get<bool>())
        << c.dump();
    EXPECT_GT(c["median_us"].get<double>(), 0.0) << c.dump();
    EXPECT_EQ(c["frames"].get<int>(), 4);
    EXPECT_LE(c["p5_us"].get<double>(), c["median_us"].get<double>());
    EXPECT_LE(c["median_us"].get<double>(), c["p95_us"].get<double>());
    // The floor is the fastest compute copy, at ratio 1; the other compute copies are no faster (the
    // fragment copy may be: lavapipe's is).
    if (c["floor"].get<bool>()) {
      ++floors;
      EXPECT_EQ(c["copy_ratio"].get<double>(), 1.0) << c.dump();
    }
    copies += c["filter"] == floor_family.name;
    if (c["filter"] == floor_family.name) {
      if (c["stage"] == "compute") {
        EXPECT_GE(c["copy_ratio"].get<double>(), 1.0) << c.dump();
      }
      if (c["floor"].get<bool>()) {
        EXPECT_EQ(c["stage"], "compute") << c.dump();
      }
      EXPECT_EQ(c["error"]["max_abs"].get<double>(), 0.0) << c.dump();  // a copy of half values is exact
      continue;
    }
    // fp16: output rounding plus the fp16 intermediate of a two-pass method.
    const double tolerance = c["precision"] == "fp32" ? 1e-5 : 2 * std::ldexp(1.0, -11);
    EXPECT_LE(c["error"]["max_abs"].get<double>(), tolerance) << c.dump();
    EXPECT_GT(c["error"]["ssim"].get<double>(), 0.999) << c.dump();
  }
  EXPECT_EQ(copies, int(2 * copy_methods));
  EXPECT_EQ(floors, 2);  // one per precision
  std::ifstream csv(dir + "/b.csv");
  std::string line;
  int lines = 0;
  while (std::getline(csv, line)) ++lines;
  EXPECT_EQ(lines, int(1 + j["cases"].size()));
}

TEST(Commands, BenchOfTheFloorFamilyTimesEachOfItsMethodsOnce) {
  const std::string dir = test::temp_dir("bench_floor");
  const filters::Family& floor_family = filters::registry().memory_floor();
  auto r = test::run_binary(
      "bench --validation --filter " + floor_family.name +
      " --sizes 19x7 --frames 2 --warmup 1 --warmup-ms 0 --precision fp16,fp32 --json " + dir + "/b.json");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const json j = read_json(dir + "/b.json");
  std::multiset<std::string> seen;
  for (const json& c : j["cases"])
    seen.insert(c["method"].get<std::string>() + " " + c["precision"].get<std::string>());
  ASSERT_EQ(seen.size(), 2 * floor_family.methods.size()) << j["cases"].dump();
  for (const filters::Method& m : floor_family.methods)
    for (const char* precision : {"fp16", "fp32"})
      EXPECT_EQ(seen.count(m.name + " " + precision), 1u) << m.name;
}

TEST(Commands, BenchSkipsSayWhichSizeAndPrecision) {
  // comp.separable_stream_half serves fp16 images only: timed in fp16, skipped in fp32, and the skip
  // names the size and precision so that a table per size and precision can list its own.
  const std::string dir = test::temp_dir("bench-skips");
  auto r = test::run_binary(
      "bench --validation --sizes 19x13 --radii 2 --methods comp.separable_stream_half --frames 2 --warmup 1 "
      "--warmup-ms 0 --precision fp16,fp32 --quiet --json " +
      dir + "/b.json");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const json j = read_json(dir + "/b.json");
  int timed = 0;
  for (const json& c : j["cases"])
    timed += c["method"] == "comp.separable_stream_half" && c["precision"] == "fp16";
  EXPECT_EQ(timed, 1) << j.dump();
  ASSERT_EQ(j["skipped"].size(), 1u) << j.dump();
  const json& s = j["skipped"][0];
  EXPECT_EQ(s["method"], "comp.separable_stream_half");
  EXPECT_EQ(s["precision"], "fp32");
  EXPECT_EQ(s["width"], 19);
  EXPECT_EQ(s["height"], 13);
  EXPECT_NE(s["reason"].get<std::string>().find("fp16 images only"), std::string::npos) << s.dump();
}

// A family that reads the scene's depth (taa) is timed on a frame of the scene's sequence: its
// colour, depth and motion, with its own history; nothing is skipped.
TEST(Commands, BenchTimesTheTaaResolveOnASceneFrame) {
  const std::string dir = test::temp_dir("bench-taa");
  auto r = test::run_binary(
      "bench --validation --filter taa --methods comp.full2d_shared,frag.full2d --sizes 40x24 --frames 2 "
      "--warmup 1 --warmup-ms 0 --quiet --json " +
      dir + "/b.json");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const json j = read_json(dir + "/b.json");
  EXPECT_TRUE(j["skipped"].empty()) << j["skipped"].dump();
  std::set<std::string> timed;
  for (const json& c : j["cases"])
    if (c["filter"] == "taa" && c["median_us"].get<double>() > 0) timed.insert(c["method"]);
  EXPECT_EQ(timed, (std::set<std::string>{"comp.full2d_shared", "frag.full2d"})) << j["cases"].dump();
  // Its reference is of a still first frame, not of frames with history: no error is shown (it
  // read 33.5 for every method on the H200, a number that was not an error; issue #54).
  for (const json& c : j["cases"])
    if (c["filter"] == "taa") {
      EXPECT_TRUE(c["error"].is_null()) << c.dump();
    }
}

// `bench --repeat N`: every case timed N times, each run's median kept, the spread of them and the
// verdict beside (bench::stability, unit-tested on synthetic spreads); and how steady its least
// steady run was (runtime::Summary::off_level, bench::unsteady, likewise).
TEST(Commands, BenchRepeatsACaseAndRecordsItsSpread) {
  const std::string dir = test::temp_dir("bench-repeat");
  auto r = test::run_binary(
      "bench --validation --filter copy --sizes 24x16 --repeat 3 --frames 3 --warmup 1 --warmup-ms 0 --quiet "
      "--json " +
      dir + "/b.json");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const json j = read_json(dir + "/b.json");
  ASSERT_FALSE(j["cases"].empty());
  for (const json& c : j["cases"]) {
    const std::vector<double> medians = c["repeat_medians_us"];
    ASSERT_EQ(medians.size(), 3u) << c.dump();
    EXPECT_DOUBLE_EQ(medians[0], c["median_us"].get<double>());
    const double lo = *std::min_element(medians.begin(), medians.end());
    const double hi = *std::max_element(medians.begin(), medians.end());
    EXPECT_NEAR(c["spread"].get<double>(), (hi - lo) / lo, 1e-9);
    EXPECT_EQ(c["unstable"].get<bool>(), (hi - lo) / lo > 0.10);
    // Of its least steady run: the share of the frames off their median's level, and the verdict
    // (none under 20 frames: this case has 3).
    const double off = c["off_level_share"];
    EXPECT_GE(off, 0.0);
    EXPECT_LE(off, 1.0);
    EXPECT_FALSE(c["unsteady"].get<bool>());
    // The clock probe's time over the timed frames, and the run's fastest over it: the clock as a share
    // of the top one (bench/clock_watch.h). A warm-up of no time (--warmup-ms 0) waits for no clock:
    // every warm-up settled.
    ASSERT_GT(j["clock_probe_us"].get<double>(), 0.0);
    const json& clock = c.at("clock");
    EXPECT_GT(clock["probe_us"].get<double>(), 0.0);
    EXPECT_NEAR(clock["share"].get<double>(),
                j["clock_probe_us"].get<double>() / clock["probe_us"].get<double>(), 1e-9);
    EXPECT_TRUE(clock["settled"].get<bool>());
    EXPECT_GE(clock["warmup_ms"].get<double>(), 0.0);
    // How the least steady run's frames followed their probes: a correlation, 0 with too few frames.
    const double correlation = clock["least_steady_correlation"];
    EXPECT_GE(correlation, -1.0);
    EXPECT_LE(correlation, 1.0);
  }
}

// A sweep of sigma alone leaves the radius at its default in every case: bench says so (issue #37:
// `--sweep sigma=2,4,8` ran every case at radius 2 without a word); with the radius set, nothing.
TEST(Commands, BenchSaysWhenASweepLeavesTheRadiusAtItsDefault) {
  const std::string common =
      " --methods comp.separable_stream --sizes 16x8 --frames 1 --warmup 0 --warmup-ms 0 --quiet";
  auto r = test::run_binary("bench --sweep sigma=2,4" + common);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("radius stays at its default (2) in every case"), std::string::npos) << r.output;
  auto fixed = test::run_binary("bench --sweep sigma=2,4 --radius 4" + common);
  ASSERT_EQ(fixed.exit_code, 0) << fixed.output;
  EXPECT_EQ(fixed.output.find("stays at its default"), std::string::npos) << fixed.output;
}

// On a CPU device a frame-sized bench says before it starts that its times are CPU times and slow
// (issue #37: the README's 4K example announced "~3369 s left" on lavapipe and nothing else).
TEST(Commands, BenchOnACpuDeviceSaysSoAtFrameSizes) {
  const std::string common =
      " --filter copy --methods comp.fetch --frames 1 --warmup 0 --warmup-ms 0 --quiet";
  auto large = test::run_binary("bench --sizes 1920x1080" + common);
  ASSERT_EQ(large.exit_code, 0) << large.output;
  auto small = test::run_binary("bench --sizes 64x32" + common);
  ASSERT_EQ(small.exit_code, 0) << small.output;
  EXPECT_EQ(small.output.find("is a CPU device"), std::string::npos) << small.output;
  auto methods = test::run_binary("methods --json");
  if (methods.output.find("llvmpipe") == std::string::npos) GTEST_SKIP() << "not a CPU device";
  EXPECT_NE(large.output.find("is a CPU device: its times are CPU times, and 1920x1080 takes minutes"),
            std::string::npos)
      << large.output;
}

TEST(Commands, BenchRejectsBadArguments) {
  for (const char* args :
       {"--radii 0", "--radii 1,,2", "--sizes 10", "--methods frag.nope", "--precision fp8", "--frames 0",
        "--kernel tent", "--json /nonexistent/dir/b.json", "--what"}) {
    auto r = test::run_binary(std::string("bench ") + args);
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.output;
  }
}

// The cells of a Markdown table row: split at the pipes that are not escaped, without the row's
// leading and trailing pipe (GitHub's rule).
size_t markdown_cells(const std::string& row) {
  std::string r = row;
  while (!r.empty() && r.back() == ' ') r.pop_back();
  size_t cells = 1;
  for (size_t i = 1; i + 1 < r.size(); ++i)
    if (r[i] == '|' && r[i - 1] != '\\') ++cells;
  return cells;
}

// Every table in `text`: a header row, a delimiter row of --- cells, then rows; each row with the
// header's number of cells (a delimiter of another count makes GitHub show no table at all).
std::string markdown_table_problems(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  std::string problems;
  for (size_t i = 0; i + 1 < lines.size(); ++i) {
    const bool delimiter = lines[i + 1].rfind("| -", 0) == 0 || lines[i + 1].rfind("|-", 0) == 0;
    if (lines[i].rfind("|", 0) != 0 || !delimiter) continue;
    const size_t cells = markdown_cells(lines[i]);
    size_t j = i + 1;
    for (; j < lines.size() && lines[j].rfind("|", 0) == 0; ++j)
      if (markdown_cells(lines[j]) != cells)
        problems += "line " + std::to_string(j + 1) + ": " + std::to_string(markdown_cells(lines[j])) +
                    " cells under a header of " + std::to_string(cells) + "\n";
    i = j;
  }
  return problems;
}

TEST(Commands, QualityTableCoversEveryMethod) {
  const std::string dir = test::temp_dir("quality");
  auto r = test::run_binary("quality --validation --size 48x32 --radii 1,2 --markdown " + dir +
                            "/q.md --json " + dir + "/q.json");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("[1/"), std::string::npos) << "progress, a line a method: " << r.output;
  // #37: the pairs' table had a delimiter row one cell longer than its header.
  std::ifstream md(dir + "/q.md");
  const std::string markdown((std::istreambuf_iterator<char>(md)), std::istreambuf_iterator<char>());
  EXPECT_NE(markdown.find("| images |"), std::string::npos);
  EXPECT_EQ(markdown_table_problems(markdown), "") << markdown;
  const json j = read_json(dir + "/q.json");
  // One table per quality column of every family that names a baseline, in the registry's order.
  std::vector<std::string> columns;
  for (const filters::Family* f : filters::registry().families()) {
    if (f->tools.quality.baseline.empty()) continue;
    if (f->tools.quality.columns.empty()) columns.push_back(f->name);
    for (const filters::QualityTables::Column& c : f->tools.quality.columns) columns.push_back(c.label);
  }
  ASSERT_EQ(j["tables"].size(), columns.size());
  for (size_t i = 0; i < columns.size(); ++i) EXPECT_EQ(j["tables"][i]["column"], columns[i]);
  // The paper's four tables, a column each, a row per radius; the fine method is exact here.
  ASSERT_EQ(j["paper_tables"].size(), 4u);
  for (const json& t : j["paper_tables"]) {
    ASSERT_EQ(t["rows"].size(), 2u) << t.dump();
    for (const std::string& c : columns) EXPECT_TRUE(t["rows"][0].contains(c)) << c << " in " << t.dump();
  }
  EXPECT_LT(j["paper_tables"][0]["rows"][0]["Tent"].get<double>(), 1e-6);  // MSE, 0..255 scale
  // The tent's separable kernel against its rank-2 one: different kernels, so not 0 (FLIP too).
  ASSERT_EQ(j["pairs"].size(), 1u);
  EXPECT_GT(j["pairs"][0]["by_radius"]["2"]["mse_255"].get<double>(), 0.0);
  EXPECT_GT(j["pairs"][0]["by_radius"]["2"]["flip"].get<double>(), 0.0);
  // The baseline against itself: FLIP 0.
  for (const json& m : j["tables"][0]["methods"]) {
    if (m["method"] == j["tables"][0]["baseline"]) {
      EXPECT_EQ(m["by_radius"]["1"]["flip"].get<double>(), 0.0);
    }
  }
  EXPECT_EQ(j["tables"][0]["filter"], "gaussian");
  EXPECT_EQ(j["tables"][0]["baseline"], "frag.full2d");
  const filters::Family& gaussian = *filters::registry().find("gaussian");
  ASSERT_EQ(j["tables"][0]["methods"].size(), gaussian.methods.size());
  for (const json& m : j["tables"][0]["methods"]) {
    if (m["method"] == "comp.separable_stream_half") {  // serves fp16 images only: measured in fp16
      EXPECT_EQ(m["precision"], "fp16");
      const json& r2 = m["by_radius"]["2"];
      if (r2.contains("skipped")) {  // a device without half arithmetic
        EXPECT_NE(r2["skipped"].get<std::string>().find("shaderFloat16"), std::string::npos) << m.dump();
      } else {  // fp16 rounding of values in [0, 1] gives about 1e-7 here (lavapipe)
        EXPECT_LT(r2["mse"].get<double>(), 1e-6) << m.dump();
      }
    }
    if (m["method"] != "frag.full2d") continue;
    EXPECT_EQ(m["precision"], "fp32");
    EXPECT_EQ(m["by_radius"]["1"]["mse"].get<double>(), 0.0);  // the baseline against itself
    EXPECT_EQ(m["by_radius"]["2"]["ssim"].get<double>(), 1.0);
  }
  for (const filters::Method& m : gaussian.methods)
    EXPECT_NE(markdown.find(m.name), std::string::npos) << m.name;
}

// evaluate end to end at a small size (the TAA family's evaluation, the default): three sequences,
// every configuration, a PSNR a frame against each frame's supersampled reference; every TAA
// configuration beats no AA on the still scene by 3 dB (lavapipe, 64x48, 24 frames: +3.2 to +4.7 dB);
// FXAA, the spatial baseline its family adds, is a row of every sequence, 1 dB above no AA on the still
// one.
TEST(Commands, EvaluateMeasuresEveryConfigurationOnThreeSequences) {
  const std::string dir = test::temp_dir("evaluate");
  auto r = test::run_binary("evaluate --filter taa --validation --size 64x48 --frames 24 --grid 3 --json " +
                            dir + "/t.json");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  // It says where it is (it ran minutes with no word), and each auto choice once (it said one 27
  // times); ghosting, undefined in 24 frames where nothing is uncovered, is said so, not "nan"
  // (issue #54).
  EXPECT_NE(r.output.find("[1/"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("s left"), std::string::npos) << r.output;
  size_t said = 0;
  for (size_t at = r.output.find("taa.auto:"); at != std::string::npos; at = r.output.find("taa.auto:", at + 1))
    ++said;
  EXPECT_EQ(said, 1u) << r.output;
  EXPECT_EQ(r.output.find("| nan |"), std::string::npos) << r.output;
  const json j = read_json(dir + "/t.json");
  EXPECT_EQ(j["filter"], "taa");
  EXPECT_EQ(j["plotted_param"], "gamma");
  ASSERT_EQ(j["sequences"].size(), 3u);
  EXPECT_EQ(j["reference_offsets"], 9);
  EXPECT_NEAR(j["flip_ppd"].get<double>(), 67.0206432766, 1e-9);
  for (const json& s : j["sequences"]) {
    ASSERT_GE(s["configs"].size(), 7u) << s.dump();
    for (const json& c : s["configs"]) {
      EXPECT_EQ(c["psnr"].size(), 24u) << c.dump();
      // Mean LDR-FLIP of the last frame: every configuration differs from the supersampled reference.
      EXPECT_GT(c["flip_last"].get<double>(), 0.0) << c.dump();
      EXPECT_LT(c["flip_last"].get<double>(), 1.0) << c.dump();
    }
  }
  const json& still = j["sequences"][0];
  ASSERT_EQ(still["sequence"], "still");
  EXPECT_EQ(still["configs"][0]["config"], "no AA");
  EXPECT_EQ(still["configs"][0]["flicker"].get<double>(), 0.0);  // nothing moves, nothing jitters
  const double no_aa = still["configs"][0]["psnr_last"].get<double>();
  for (size_t i = 1; i < still["configs"].size(); ++i)
    if (still["configs"][i]["chain"] != "fxaa") {  // the spatial baseline: below
      EXPECT_GT(still["configs"][i]["psnr_last"].get<double>(), no_aa + 3) << still["configs"][i].dump();
    }
  // FXAA's row, which its family adds to TAA's evaluation as the spatial baseline: on every
  // sequence, measured like the others; it reads no history and the scene does not jitter for it, so
  // on the still sequence it does not flicker.
  for (const json& s : j["sequences"]) {
    const auto fxaa = std::find_if(s["configs"].begin(), s["configs"].end(),
                                   [](const json& c) { return c["chain"] == "fxaa"; });
    ASSERT_NE(fxaa, s["configs"].end()) << s["sequence"] << " has no FXAA row";
    EXPECT_NE((*fxaa)["config"].get<std::string>().find("FXAA"), std::string::npos) << fxaa->dump();
    EXPECT_TRUE((*fxaa)["psnr_last"].is_number()) << fxaa->dump();
    if (s["sequence"] == "still") {
      EXPECT_EQ((*fxaa)["flicker"].get<double>(), 0.0) << fxaa->dump();
      EXPECT_GT((*fxaa)["psnr_last"].get<double>(), no_aa + 1) << fxaa->dump();  // 64x48: +1.5 dB
    }
    if (s["sequence"] == "moving") {
      EXPECT_TRUE((*fxaa)["ghosting_rms"].is_number()) << fxaa->dump();
    }
  }
  EXPECT_NE(r.output.find("| FXAA (spatial baseline, defaults) |"), std::string::npos) << r.output;
  const json& moving = j["sequences"][2];
  EXPECT_GT(moving["configs"][0]["ghosting_pixels"].get<int>(), 0) << "objects uncover pixels";
  // report plots it: PSNR against the frame for each sequence, PSNR, flicker and FLIP against gamma.
  auto report = test::run_binary("report " + dir + "/t.json --out " + dir + "/t.html");
  ASSERT_EQ(report.exit_code, 0) << report.output;
  EXPECT_NE(report.output.find("6 plots"), std::string::npos) << report.output;
  std::filesystem::remove_all(dir);
}

TEST(Commands, CompareKnownPairs) {
  const std::string dir = test::temp_dir("compare");
  io::ImageF a = common::random_image(40, 30, 3, 5);
  for (float& v : a.pixels) v = std::floor(v * 512) / 1024;  // k / 1024 in [0, 0.5): + 0.25 stays exact
  io::ImageF b = a;
  for (float& v : b.pixels) v += 0.25f;  // exact in float: a constant offset, MSE 0.0625
  io::write_pfm(dir + "/a.pfm", a);
  io::write_pfm(dir + "/b.pfm", b);
  auto same = test::run_binary("compare " + dir + "/a.pfm " + dir + "/a.pfm --json " + dir + "/same.json");
  ASSERT_EQ(same.exit_code, 0) << same.output;
  const json s = read_json(dir + "/same.json");
  EXPECT_EQ(s["mse"].get<double>(), 0.0);
  EXPECT_TRUE(s["psnr"].is_null());  // infinite
  EXPECT_NE(same.output.find("inf"), std::string::npos);
  EXPECT_EQ(s["ssim"].get<double>(), 1.0);
  EXPECT_EQ(s["max_abs"].get<double>(), 0.0);
  auto offset = test::run_binary("compare " + dir + "/a.pfm " + dir + "/b.pfm --json " + dir +
                                 "/offset.json --diff " + dir + "/diff.png");
  ASSERT_EQ(offset.exit_code, 0) << offset.output;
  const json o = read_json(dir + "/offset.json");
  EXPECT_DOUBLE_EQ(o["mse"].get<double>(), 0.0625);
  EXPECT_NEAR(o["psnr"].get<double>(), 10 * std::log10(16.0), 1e-9);
  EXPECT_DOUBLE_EQ(o["max_abs"].get<double>(), 0.25);
  EXPECT_LT(o["ssim"].get<double>(), 1.0);
  const io::ImageU8 diff = io::read_png(dir + "/diff.png");
  EXPECT_EQ(diff.width, 40u);
  EXPECT_EQ(diff.rgba[0], 255);  // every difference is the largest: white
  // PNGs compare as stored / 255: one step of 51 is 0.2.
  io::ImageU8 p{12, 12, std::vector<uint8_t>(12 * 12 * 4, 100)}, q = p;
  for (size_t i = 0; i < q.rgba.size(); ++i)
    if (i % 4 != 3) q.rgba[i] = 151;
  io::write_png(dir + "/p.png", p);
  io::write_png(dir + "/q.png", q);
  auto png = test::run_binary("compare " + dir + "/p.png " + dir + "/q.png --json " + dir + "/png.json");
  ASSERT_EQ(png.exit_code, 0) << png.output;
  // Alpha is equal (100/255); colour compares premultiplied: 0.2 times the alpha, within float rounding,
  // and the output says so.
  EXPECT_NEAR(read_json(dir + "/png.json")["mse"].get<double>(), std::pow(0.2 * 100 / 255, 2) * 3 / 4, 1e-7);
  EXPECT_EQ(read_json(dir + "/png.json")["colour"], "premultiplied by alpha");
  EXPECT_NE(png.output.find("colour premultiplied by alpha"), std::string::npos) << png.output;
  // An sRGB PNG against a linear PFM of the same picture: the PNG is decoded to linear, and a line
  // says so (as stored, the two encodings measured 11.9 dB apart; issue #37).
  io::ImageU8 ramp{64, 4, std::vector<uint8_t>(64 * 4 * 4, 255)};
  io::ImageF linear{64, 4, 3, std::vector<float>(64 * 4 * 3)};
  for (uint32_t i = 0; i < 64 * 4; ++i)
    for (uint32_t ch = 0; ch < 3; ++ch) {
      const uint8_t code = uint8_t((i % 64) * 4 + ch);
      ramp.rgba[i * 4 + ch] = code;
      linear.pixels[i * 3 + ch] = float(io::srgb_to_linear(code / 255.0));
    }
  io::write_png(dir + "/ramp.png", ramp);
  io::write_pfm(dir + "/ramp.pfm", linear);
  auto mixed =
      test::run_binary("compare " + dir + "/ramp.png " + dir + "/ramp.pfm --json " + dir + "/mixed.json");
  ASSERT_EQ(mixed.exit_code, 0) << mixed.output;
  EXPECT_NE(mixed.output.find("ramp.png holds sRGB-encoded values and " + dir + "/ramp.pfm linear ones"),
            std::string::npos)
      << mixed.output;
  EXPECT_LT(read_json(dir + "/mixed.json")["max_abs"].get<double>(), 1e-6) << mixed.output;
}

// FLIP beside the other metrics: LDR-FLIP of two pictures (flat black against flat white: the
// definition's remapped HyAB distance of L* 0 and 100, by hand), HDR-FLIP of two PFMs with its
// exposures, the pixels per degree from --ppd or a monitor; and --fuzz counting levels or values.
TEST(Commands, CompareGivesFlipAndFuzz) {
  const std::string dir = test::temp_dir("compare-flip");
  io::ImageU8 black{12, 12, std::vector<uint8_t>(12 * 12 * 4, 0)},
      white{12, 12, std::vector<uint8_t>(12 * 12 * 4, 255)};
  for (size_t i = 3; i < black.rgba.size(); i += 4) black.rgba[i] = 255;
  io::write_png(dir + "/black.png", black);
  io::write_png(dir + "/white.png", white);
  auto r = test::run_binary("compare " + dir + "/black.png " + dir + "/white.png --json " + dir + "/bw.json");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const json bw = read_json(dir + "/bw.json")["flip"];
  const double cmax = 41.2760963, expected = 0.95 + (std::pow(100.0, 0.7) - 0.4 * cmax) / (0.6 * cmax) * 0.05;
  EXPECT_EQ(bw["kind"], "LDR");
  EXPECT_NEAR(bw["mean"].get<double>(), expected, 1e-6);
  EXPECT_NEAR(bw["max"].get<double>(), expected, 1e-6);
  EXPECT_NEAR(bw["ppd"].get<double>(), 67.0206432766, 1e-9);
  EXPECT_TRUE(bw["exposures"].is_null());
  EXPECT_NE(r.output.find("LDR-FLIP, 67.02 pixels per degree"), std::string::npos) << r.output;
  // The map in magma: every pixel the same entry, round(255 x FLIP).
  r = test::run_binary("compare " + dir + "/black.png " + dir + "/white.png --flip-map " + dir + "/map.png");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const io::ImageU8 map = io::read_png(dir + "/map.png");
  ASSERT_EQ(map.width, 12u);
  EXPECT_EQ(map.rgba, common::flip_magma(std::vector<double>(144, expected), 12, 12).rgba);
  EXPECT_GT(int(map.rgba[0]), 200) << "near the top of magma: a light colour";
  r = test::run_binary("compare " + dir + "/black.png " + dir + "/white.png --monitor 0.6:2560:0.6 --json " +
                       dir + "/m.json");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NEAR(read_json(dir + "/m.json")["flip"]["ppd"].get<double>(), 2560 * 3.14159265358979323846 / 180,
              1e-9);

  io::ImageF a = common::random_image(40, 30, 3, 5), b = a;
  for (float& v : b.pixels) v = 2 * v + 0.1f;
  io::write_pfm(dir + "/a.pfm", a);
  io::write_pfm(dir + "/b.pfm", b);
  r = test::run_binary("compare " + dir + "/a.pfm " + dir + "/b.pfm --json " + dir + "/hdr.json");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const json hdr = read_json(dir + "/hdr.json")["flip"];
  EXPECT_EQ(hdr["kind"], "HDR");
  EXPECT_GE(hdr["exposures"]["count"].get<int>(), 2);
  EXPECT_GT(hdr["mean"].get<double>(), 0.0);
  EXPECT_LE(hdr["max"].get<double>(), 1.0);
  r = test::run_binary("compare " + dir + "/a.pfm " + dir + "/a.pfm --flip-exposure -1:1:3 --json " + dir +
                       "/s.json");
  EXPECT_EQ(read_json(dir + "/s.json")["flip"]["mean"].get<double>(), 0.0);
  EXPECT_EQ(read_json(dir + "/s.json")["flip"]["exposures"]["count"].get<int>(), 3);

  // Ten pixels ten levels brighter: over 5 and 9 levels, not over 10; over 0.03 in values (10/255).
  io::ImageU8 p{12, 12, std::vector<uint8_t>(12 * 12 * 4, 100)};
  for (size_t i = 3; i < p.rgba.size(); i += 4) p.rgba[i] = 255;
  io::ImageU8 q = p;
  for (size_t i = 0; i < 10; ++i) q.rgba[i * 4 + 1] = 110;
  io::write_png(dir + "/p.png", p);
  io::write_png(dir + "/q.png", q);
  for (const auto& [fuzz, count, unit] :
       {std::tuple{"5", 10, "levels of 255"}, std::tuple{"9", 10, "levels of 255"},
        std::tuple{"10", 0, "levels of 255"}, std::tuple{"0.03", 10, "values compared"}}) {
    r = test::run_binary("compare " + dir + "/p.png " + dir + "/q.png --fuzz " + fuzz + " --json " + dir +
                         "/f.json");
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const json f = read_json(dir + "/f.json")["fuzz"];
    EXPECT_EQ(f["count"].get<int>(), count) << fuzz;
    EXPECT_EQ(f["unit"], unit) << fuzz;
    EXPECT_NEAR(f["share"].get<double>(), count / 144.0, 1e-12) << fuzz;
  }
  // HDR-FLIP of a reference whose median is black has no exposure range: n/a, and the rest is written;
  // a map asked for it is refused.
  io::ImageF dark{16, 16, 3, std::vector<float>(16 * 16 * 3, 0.0f)};
  for (size_t i = 0; i < 3 * 40; ++i) dark.pixels[i] = 2.0f;
  io::write_pfm(dir + "/dark.pfm", dark);
  r = test::run_binary("compare " + dir + "/dark.pfm " + dir + "/dark.pfm --json " + dir + "/dark.json");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("flip     n/a (A's median luminance is 0"), std::string::npos) << r.output;
  EXPECT_TRUE(read_json(dir + "/dark.json")["flip"].is_null());
  EXPECT_EQ(test::run_binary("compare " + dir + "/dark.pfm " + dir + "/dark.pfm --flip-map " + dir + "/d.png")
                .exit_code,
            2);
  for (const char* bad :
       {"--monitor 1e-300:3840:0.7", "--ppd 5000", "--flip-map m.bmp", "--fuzz -1", "--fuzz x", "--device 0",
        "--monitor 1:2", "--monitor 0:100:1", "--ppd 0", "--flip-exposure 2:1:3", "--flip-exposure 0:1:0.5"})
    EXPECT_EQ(test::run_binary("compare " + dir + "/p.png " + dir + "/q.png " + std::string(bad)).exit_code,
              2)
        << bad;
}

// Per pixel, the share of two maps (one-channel PFM) within `bound` of each other.
double share_within(const io::ImageF& a, const io::ImageF& b, double bound) {
  EXPECT_EQ(a.pixels.size(), b.pixels.size());
  if (a.pixels.empty() || a.pixels.size() != b.pixels.size()) return 0;
  size_t within = 0;
  for (size_t i = 0; i < a.pixels.size(); ++i) within += std::abs(a.pixels[i] - b.pixels[i]) <= bound;
  return double(within) / double(a.pixels.size());
}

// `compare --gpu`: the FLIP passes on the files, against compare's double-precision FLIP of the same
// pair (LDR and HDR): the mean within 1e-4, the map (--flip-map .pfm: its values) within 1e-3 on
// 99.9% of the pixels, validation on.
TEST(Commands, CompareComputesFlipOnTheGpuToTheReference) {
  const std::string dir = test::temp_dir("compare-flip-gpu");
  io::ImageF a = common::random_image(61, 37, 3, 11), b = a;
  for (size_t i = 0; i < b.pixels.size(); ++i)
    b.pixels[i] = 6 * a.pixels[i] * (1.0f + 0.1f * float(i % 7) / 7);
  for (float& v : a.pixels) v *= 6;
  io::write_pfm(dir + "/a.pfm", a);
  io::write_pfm(dir + "/b.pfm", b);
  io::write_image_file(dir + "/a.png", common::random_image(61, 37, 3, 12), io::Encoding::Raw);
  io::write_image_file(dir + "/b.png", common::random_image(61, 37, 3, 13), io::Encoding::Raw);
  for (const std::string pair : {"a.pfm b.pfm", "a.png b.png"}) {
    SCOPED_TRACE(pair);
    const std::string files = dir + "/" + pair.substr(0, 5) + " " + dir + "/" + pair.substr(6);
    auto cpu =
        test::run_binary("compare " + files + " --json " + dir + "/cpu.json --flip-map " + dir + "/cpu.pfm");
    ASSERT_EQ(cpu.exit_code, 0) << cpu.output;
    auto gpu = test::run_binary("compare " + files + " --gpu --validation --json " + dir +
                                "/gpu.json --flip-map " + dir + "/gpu.pfm");
    ASSERT_EQ(gpu.exit_code, 0) << gpu.output;
    EXPECT_NE(gpu.output.find(", fp32)"), std::string::npos) << gpu.output;
    const json c = read_json(dir + "/cpu.json")["flip"], g = read_json(dir + "/gpu.json")["flip"];
    EXPECT_EQ(c["computed_on"], "cpu");
    EXPECT_EQ(g["computed_on"], "gpu");
    EXPECT_EQ(c["kind"], g["kind"]);
    EXPECT_EQ(c["exposures"], g["exposures"]) << "the host's range either way";
    EXPECT_GT(c["mean"].get<double>(), 0.01);
    EXPECT_NEAR(g["mean"].get<double>(), c["mean"].get<double>(), 1e-4);
    EXPECT_GE(share_within(io::read_pfm(dir + "/cpu.pfm"), io::read_pfm(dir + "/gpu.pfm"), 1e-3), 0.999);
  }
}

// `run --headless --flip REF,TEST`: the passes in the timings, the last frame's FLIP in the table and
// the JSON, equal to `compare` of the captured pair (HDR-FLIP, its exposures found on the GPU), and
// the refusals before any device.
TEST(Commands, RunTimesFlipOfTwoImagesOfTheFrame) {
  const std::string dir = test::temp_dir("run-flip");
  auto r = test::run_binary(
      "run --headless --size 96x64 --frames 3 --warmup 2 --chain gaussian --validation "
      "--camera fixed --animate off --flip scene,gaussian --timings " +
      dir + "/t.json --capture scene=" + dir + "/s.pfm --capture gaussian=" + dir +
      "/g.pfm --capture flip=" + dir + "/f.pfm");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("HDR-FLIP of gaussian against scene, the last frame: mean"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("idle in every timed frame"), std::string::npos) << "the exposures past the count";
  const json t = read_json(dir + "/t.json");
  bool rows = false, range = false;
  for (const json& p : t["passes"]) {
    rows = rows || p["name"] == "flip rows 1";
    range = range || p["name"] == "flip range high";
  }
  EXPECT_TRUE(rows && range);
  r = test::run_binary("compare " + dir + "/s.pfm " + dir + "/g.pfm --json " + dir + "/c.json --flip-map " +
                       dir + "/c.pfm");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const json c = read_json(dir + "/c.json")["flip"], f = t["flip"];
  EXPECT_EQ(f["kind"], "HDR");
  EXPECT_NEAR(f["mean"].get<double>(), c["mean"].get<double>(), 1e-4);
  EXPECT_EQ(f["exposures"]["count"], c["exposures"]["count"]);
  EXPECT_NEAR(f["exposures"]["start"].get<double>(), c["exposures"]["start"].get<double>(), 1e-5);
  EXPECT_NEAR(f["exposures"]["stop"].get<double>(), c["exposures"]["stop"].get<double>(), 1e-5);
  EXPECT_TRUE(f["exposures"]["all_recorded"].get<bool>());
  EXPECT_GE(share_within(io::read_pfm(dir + "/c.pfm"), io::read_pfm(dir + "/f.pfm"), 1e-3), 0.999);
  for (const char* bad : {"--flip scene", "--flip scene,nope", "--flip-ldr", "--ppd 3 --chain copy",
                          "--flip scene,copy --ppd 0", "--flip scene,copy --flip-exposure 1:0:2"})
    EXPECT_EQ(test::run_binary("run --headless --chain copy " + std::string(bad)).exit_code, 2) << bad;
  EXPECT_EQ(test::run_binary("run --chain copy --flip scene,copy").exit_code, 2) << "the window has its view";
}

TEST(Commands, CompareRejectsMismatchAndUnreadableFiles) {
  const std::string dir = test::temp_dir("compare-bad");
  io::write_pfm(dir + "/a.pfm", common::random_image(10, 10, 3, 1));
  io::write_pfm(dir + "/b.pfm", common::random_image(11, 10, 3, 1));
  { std::ofstream(dir + "/bad.png") << "nope"; }
  for (const std::string args :
       {"a.pfm b.pfm", "a.pfm bad.png", "a.pfm missing.pfm", "a.pfm", "a.pfm a.pfm a.pfm"}) {
    std::string full;
    for (size_t start = 0; start < args.size();) {
      size_t space = args.find(' ', start);
      if (space == std::string::npos) space = args.size();
      full += " " + dir + "/" + args.substr(start, space - start);
      start = space + 1;
    }
    auto r = test::run_binary("compare" + full);
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.output;
  }
  EXPECT_EQ(test::run_binary("compare " + dir + "/a.pfm " + dir + "/a.pfm --bogus").exit_code, 2);
}

// The report opens in headless Chromium (Debian's chromium, installed by scripts/install-deps.sh)
// without console errors and shows two plots per stage and size.
TEST(Commands, ReportLoadsInChromiumWithEveryPlot) {
  const std::string dir = test::temp_dir("report");
  auto bench = test::run_binary(
      "bench --sizes 29x17,31x19 --radii 1,2 --methods frag.full2d,comp.tiled --frames 3 "
      "--warmup 1 --warmup-ms 0 --quiet --json " +
      dir + "/b.json --captures " + dir);
  ASSERT_EQ(bench.exit_code, 0) << bench.output;
  EXPECT_TRUE(std::filesystem::exists(dir + "/comp.tiled_radius-2_31x19_fp16_diff.png"));
  auto report = test::run_binary("report " + dir + "/b.json --out " + dir + "/report.html");
  ASSERT_EQ(report.exit_code, 0) << report.output;
  // 2 sizes x 2 stages (fragment, compute) x 2 plots (time, ratio to copy).
  EXPECT_NE(report.output.find("8 plots"), std::string::npos) << report.output;

  if (std::system("command -v chromium >/dev/null 2>&1") != 0) GTEST_SKIP() << "chromium is not installed";
  const std::string command =
      "chromium --headless --no-sandbox --disable-gpu --enable-logging=stderr --v=0 "
      "--user-data-dir=" +
      dir + "/profile --dump-dom file://" + dir + "/report.html 2>" + dir + "/console.txt";
  FILE* pipe = popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string dom;
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) dom.append(buffer, n);
  ASSERT_EQ(pclose(pipe), 0) << "chromium failed";
  size_t plots = 0;
  for (size_t at = dom.find("<svg class=\"plot\""); at != std::string::npos;
       at = dom.find("<svg class=\"plot\"", at + 1))
    ++plots;
  EXPECT_EQ(plots, 8u) << "the DOM Chromium built";
  size_t thumbnails = 0;  // an output and an error heat map per case, inline
  for (size_t at = dom.find("data:image/png;base64,"); at != std::string::npos;
       at = dom.find("data:image/png;base64,", at + 1))
    ++thumbnails;
  EXPECT_EQ(thumbnails, 2u * 2 * 2 * 2) << "sizes x radii x methods x (output, diff)";
  std::ifstream console(dir + "/console.txt");
  std::string line;
  while (std::getline(console, line)) EXPECT_EQ(line.find("CONSOLE"), std::string::npos) << line;
}

namespace {

// A small bench's JSON (two gaussian methods at 29x17) in `dir`, for a test to doctor.
json small_bench_json(const std::string& dir) {
  auto bench = test::run_binary(
      "bench --sizes 29x17 --radii 1 --methods frag.separable,comp.tiled --frames 3 "
      "--warmup 1 --warmup-ms 0 --no-error --quiet --json " +
      dir + "/b.json");
  EXPECT_EQ(bench.exit_code, 0) << bench.output;
  return read_json(dir + "/b.json");
}

// The report's HTML of `j`, written to `dir` first.
std::string report_of(const std::string& dir, const json& j) {
  std::ofstream(dir + "/b.json") << j.dump();
  auto report = test::run_binary("report " + dir + "/b.json --out " + dir + "/report.html");
  EXPECT_EQ(report.exit_code, 0) << report.output;
  std::ifstream in(dir + "/report.html");
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

}  // namespace

// Lavapipe on Debian 12 gives no compiler statistics, so they are written into the JSON here as
// NVIDIA's driver names them (seen on the H100); the report shows each case's registers per thread,
// the most of its pipelines, and a dash where there are none.
TEST(Commands, ReportShowsRegistersWhereTheDriverToldThem) {
  const std::string dir = test::temp_dir("report-registers");
  json j = small_bench_json(dir);
  for (json& c : j["cases"]) {
    if (c["method"] != "frag.separable") continue;
    ASSERT_EQ(c["pipelines"].size(), 2u);
    c["pipelines"][0]["statistics"] = {{"Register Count", 77.0}, {"Binary Size", 5000.0}};
    c["pipelines"][1]["statistics"] = {
        {"Fragment Shader: Register Count", 123.0}};  // a graphics pipeline's stage
  }
  const std::string html = report_of(dir, j);
  EXPECT_NE(html.find("<th>registers</th>"), std::string::npos);
  EXPECT_NE(html.find("<td>123</td>"), std::string::npos) << "the most of the method's two pipelines";
  EXPECT_EQ(html.find("<td>77</td>"), std::string::npos);
  const size_t tiled = html.find("<td>comp.tiled</td>");
  ASSERT_NE(tiled, std::string::npos);
  EXPECT_NE(html.find("<td>—</td>", tiled), std::string::npos) << "no statistics: a dash";
}

// A case whose time is not one number says so beside its median in the report's table: bench's
// verdicts over its runs (unstable) and within one (unsteady); a case with neither says nothing.
TEST(Commands, ReportMarksTimesThatAreNotOneNumber) {
  const std::string dir = test::temp_dir("report-verdicts");
  json j = small_bench_json(dir);
  for (json& c : j["cases"]) {
    const bool marked = c["method"] == "frag.separable";
    c["unstable"] = marked;
    c["spread"] = marked ? 0.5 : 0.0;
    c["unsteady"] = marked;
    c["off_level_share"] = marked ? 0.25 : 0.0;
  }
  const std::string html = report_of(dir, j);
  EXPECT_NE(html.find("(unstable: runs spread 50%; unsteady: 25% of a run's frames off its level)"),
            std::string::npos)
      << html;
  EXPECT_EQ(html.find("unstable: runs spread 0%"), std::string::npos);
  EXPECT_EQ(html.find("unsteady: 0%"), std::string::npos);
}

// Whether a device shades fragments on few units is read from what its file measured, not from its
// name: the fragment copy bench times beside the compute copies. Over 1.5x the compute floor, the
// report says so with the ratio; a file whose fragment copy is as fast (lavapipe's), or that has
// none (older sittings), gets no such note, whatever the device is called.
TEST(Commands, ReportReadsFragmentShadingFromTheFragmentCopy) {
  const std::string dir = test::temp_dir("report-fragment");
  json j = small_bench_json(dir);
  j["device"]["name"] = "NVIDIA H200";
  const std::string floor = filters::registry().memory_floor().name;
  int fragment_copies = 0;
  for (json& c : j["cases"])
    if (c["filter"] == floor && c["stage"] == "fragment") {
      c["copy_ratio"] = 3.25;
      ++fragment_copies;
    }
  ASSERT_GT(fragment_copies, 0) << "bench times a fragment copy";
  const std::string note = "runs fragment shaders on few units";
  EXPECT_NE(report_of(dir, j).find("copies 3.25x slower in a fragment shader than in compute"),
            std::string::npos);
  for (json& c : j["cases"])
    if (c["filter"] == floor && c["stage"] == "fragment") c["copy_ratio"] = 0.7;
  EXPECT_EQ(report_of(dir, j).find(note), std::string::npos);
  json older = j;
  older["cases"] = json::array();
  for (const json& c : j["cases"])
    if (!(c["filter"] == floor && c["stage"] == "fragment")) older["cases"].push_back(c);
  EXPECT_EQ(report_of(dir, older).find(note), std::string::npos);
}

// Flicker is the mean change between frames of the run's second half: a run of one frame has none,
// and says so (null in the JSON, a dash in the table) rather than 0, which would read as "steady";
// the report takes such a file.
TEST(Commands, EvaluateOfOneFrameHasNoFlicker) {
  const std::string dir = test::temp_dir("evaluate-one-frame");
  auto r =
      test::run_binary("evaluate --filter taa --size 16x16 --frames 1 --grid 2 --json " + dir + "/e.json");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("- (needs 2 frames)"), std::string::npos) << r.output;
  const json j = read_json(dir + "/e.json");
  for (const json& s : j["sequences"]) {
    if (s["sequence"] != "still") continue;
    for (const json& c : s["configs"]) EXPECT_TRUE(c["flicker"].is_null()) << c.dump();
  }
  EXPECT_EQ(test::run_binary("report " + dir + "/e.json --out " + dir + "/e.html").exit_code, 0);
}

TEST(Commands, ReportRejectsBadInput) {
  const std::string dir = test::temp_dir("report-bad");
  { std::ofstream(dir + "/not.json") << "{ nope"; }
  { std::ofstream(dir + "/other.json") << R"({"schema": "something/1"})"; }
  { std::ofstream(dir + "/partial.json") << R"({"schema": "filterlab.bench/1", "device": {"name": "x"}})"; }
  for (const std::string args : {"not.json", "other.json", "partial.json", "missing.json"}) {
    auto r = test::run_binary("report " + dir + "/" + args + " --out " + dir + "/r.html");
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.output;
    EXPECT_FALSE(std::filesystem::exists(dir + "/r.html")) << args;
  }
  EXPECT_EQ(test::run_binary("report --out " + dir + "/r.html").exit_code, 2);
  EXPECT_EQ(test::run_binary("report " + dir + "/not.json").exit_code, 2);
  EXPECT_EQ(test::run_binary("report " + dir + "/not.json --out " + dir + "/r.txt").exit_code, 2);
}

// The report says where one method overtakes another: here the bench's times are replaced by ones
// that cross between r = 2 and 4 (lavapipe's own would decide nothing).
TEST(Commands, ReportNamesWhereOneMethodOvertakesAnother) {
  const std::string dir = test::temp_dir("crossover");
  auto bench = test::run_binary(
      "bench --sizes 29x17 --radii 1,2,4 --methods comp.tiled,comp.separable_shared --frames 2 --warmup 1 "
      "--warmup-ms 0 --no-error --quiet --json " +
      dir + "/b.json");
  ASSERT_EQ(bench.exit_code, 0) << bench.output;
  nlohmann::json j;
  std::ifstream(dir + "/b.json") >> j;
  for (nlohmann::json& c : j["cases"]) {
    if (c["filter"] != "gaussian") continue;
    const std::string params = c["params"];
    const int r = params.find("radius=4") != std::string::npos   ? 4
                  : params.find("radius=2") != std::string::npos ? 2
                                                                 : 1;
    c["median_us"] = c["method"] == "comp.tiled" ? 10.0 * r : 30.0;
  }
  std::ofstream(dir + "/c.json") << j.dump();
  auto report = test::run_binary("report " + dir + "/c.json --out " + dir + "/report.html");
  ASSERT_EQ(report.exit_code, 0) << report.output;
  std::ifstream html(dir + "/report.html");
  const std::string text((std::istreambuf_iterator<char>(html)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("comp.separable_shared overtakes comp.tiled between radius 2 and 4"),
            std::string::npos);
  EXPECT_EQ(text.find("between r 1 and 2"), std::string::npos);
}
