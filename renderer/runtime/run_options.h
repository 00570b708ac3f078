#pragma once
// What a run of the scene and a chain is asked to do: the options the headless runner, the window
// and the frame graph share (headless_runner.h runs them without a window).
#include "common/flip.h"
#include "io/image_io.h"
#include "passes/tonemap_curves.h"
#include "scene/scene_content.h"

#include <vulkan/vulkan.h>

#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace filterlab::runtime {

// A capture or read-back names an image the graph does not have: a usage error.
class UnknownImageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Capture {
  std::string image;
  std::filesystem::path path;
};

// `run --headless --flip REF,TEST`: FLIP of TEST against REF, two of the frame's images of one size,
// every frame, timed with the other passes; its map is the image "flip".
inline constexpr const char* kFlipImage = "flip";
struct FlipRequest {
  std::string reference, test;
  // LDR-FLIP where the reference is 8-bit (a displayed image, sRGB-encoded) or `ldr` (--flip-ldr: the
  // values as linear RGB, clamped to 0..1); else HDR-FLIP at viewing.exposures (or from the reference).
  bool ldr = false;
  common::FlipViewing viewing;
};

struct RunOptions {
  VkExtent2D size{1280, 720};
  uint32_t frames = 60;  // measured frames, after warm-up
  uint32_t warmup = 10;
  std::string chain;
  bool validation = false;
  std::string device;
  std::vector<Capture> captures;
  std::vector<std::string> read_images;  // kept in memory in RunResult::images (tests)
  std::optional<std::filesystem::path> timings_json, dump_graph;
  bool list_images = false;
  std::filesystem::path shader_dir;               // SPIR-V from the build
  std::optional<std::filesystem::path> glsl_dir;  // compile GLSL at run time instead
  scene::SceneSettings scene;
  // A still image in place of the scene (`run --image FILE`, passes/still_image_pass.h): its file,
  // and its pixels once decoded (load_content, before the device is opened).
  std::optional<std::filesystem::path> image;
  std::shared_ptr<const io::ImageF> still;
  // A glTF scene in place of the built-in one (`run --scene FILE`, scene/gltf_scene.h), its camera
  // (`--scene-camera`), and the scene once loaded (load_content, before the device is opened).
  std::optional<std::filesystem::path> scene_file;
  std::optional<std::string> scene_camera;
  std::shared_ptr<const scene::SceneModel> scene_model;
  bool gpu_timing = true;
  passes::Display display;  // --tonemap, --exposure, --ev
  bool print_table = true;
  std::optional<FlipRequest> flip;
};

}  // namespace filterlab::runtime
