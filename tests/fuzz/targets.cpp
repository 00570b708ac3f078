#include "targets.h"

#include "bench_report.h"
#include "filters/auto_method.h"
#include "filters/chain.h"
#include "io/image_files.h"
#include "io/input_file.h"
#include "scene/gltf_scene.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace filterlab::fuzz {
namespace fs = std::filesystem;

namespace {

// A folder of this process's own for the files the parsers read (they take paths, as the commands
// give them): the input is written there under the name the parser expects.
const fs::path& scratch() {
  static const fs::path dir = [] {
    fs::path d = fs::temp_directory_path() / ("filterlab-fuzz-" + std::to_string(::getpid()));
    fs::create_directories(d);
    return d;
  }();
  return dir;
}

fs::path write_input(const uint8_t* data, size_t size, const std::string& name) {
  const fs::path path = scratch() / name;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(data), std::streamsize(size));
  return path;
}

// As `filterlab filter` and `run --image` read an image: the header, the checks the commands make on
// it (a side of at most 16384; instead of the machine's memory, 1 M pixels, so that a legitimate
// decode stays well inside the fuzzer's 1 s an input under the sanitizers), then the pixels.
void image(const uint8_t* data, size_t size, const char* extension) {
  const fs::path path = write_input(data, size, std::string("input") + extension);
  try {
    const io::ImageHeader h = io::read_image_header(path);
    if (h.width > 16384 || h.height > 16384 || uint64_t(h.width) * h.height > (1u << 20)) return;
    for (io::Encoding e : {io::Encoding::Srgb, io::Encoding::Raw}) {
      const io::ImageF image = io::read_image_file(path, e);
      if (image.width != h.width || image.height != h.height ||
          image.pixels.size() != size_t(h.width) * h.height * image.channels)
        __builtin_trap();  // the header and the pixels disagree
    }
  } catch (const io::IoError&) {
  }
}

void png(const uint8_t* d, size_t n) {
  image(d, n, ".png");
}
void jpeg(const uint8_t* d, size_t n) {
  image(d, n, ".jpg");
}
void pfm(const uint8_t* d, size_t n) {
  image(d, n, ".pfm");
}
void exr(const uint8_t* d, size_t n) {
  image(d, n, ".exr");
}

// A glTF scene, .glb where the bytes start with its magic number, else .gltf. The files it names
// resolve in the scratch folder (what earlier inputs left there included).
void gltf(const uint8_t* data, size_t size) {
  const bool binary = size >= 4 && std::string(reinterpret_cast<const char*>(data), 4) == "glTF";
  const fs::path path = write_input(data, size, binary ? "scene.glb" : "scene.gltf");
  try {
    scene::load_gltf(path);
    scene::load_gltf(path, std::string("0"));  // its first camera, where it has one
  } catch (const io::IoError&) {
  }
}

// A convolve kernel file: .pfm where the bytes start with 'P', else .png, checked as a chain step
// would be.
void kernel(const uint8_t* data, size_t size) {
  const bool pfm = size > 0 && data[0] == 'P';
  const fs::path path = write_input(data, size, pfm ? "kernel.pfm" : "kernel.png");
  try {
    filters::check_chain(filters::parse_chain("convolve:kernel=" + path.string()), 64, 48);
  } catch (const filters::ChainError&) {
  }
}

// A chain string and its parameters, parsed and resolved against the registry's schemas, checked at
// two sizes (no device).
void chain(const uint8_t* data, size_t size) {
  const std::string spec(reinterpret_cast<const char*>(data), size);
  try {
    const std::vector<filters::FilterStep> steps = filters::parse_chain(spec);
    filters::check_chain(steps, 64, 48);
    filters::check_chain(steps, 1, 1);
    for (const filters::FilterStep& step : steps) filters::step_spec(step);
  } catch (const filters::ChainError&) {
  }
}

void tune(const uint8_t* data, size_t size) {
  try {
    filters::parse_tune_table(std::string(reinterpret_cast<const char*>(data), size), "fuzz input");
  } catch (const filters::ChainError&) {
  }
}

// `filterlab report` over one bench or evaluate JSON file.
void report(const uint8_t* data, size_t size) {
  const fs::path path = write_input(data, size, "input.json");
  try {
    report::make_report({path});
  } catch (const report::ReportInputError&) {
  }
}

}  // namespace

const std::vector<Target>& targets() {
  static const std::vector<Target> all = {
      {"png", png, 1 << 16},     {"jpeg", jpeg, 1 << 16}, {"pfm", pfm, 1 << 16},
      {"exr", exr, 1 << 16},     {"gltf", gltf, 1 << 16}, {"kernel", kernel, 1 << 14},
      {"chain", chain, 1 << 10}, {"tune", tune, 1 << 14}, {"report", report, 1 << 16},
  };
  return all;
}

const Target* find_target(const std::string& name) {
  for (const Target& t : targets())
    if (t.name == name) return &t;
  return nullptr;
}

}  // namespace filterlab::fuzz
