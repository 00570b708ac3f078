// glTF scenes (`run --scene FILE`): Debian's assimp-testmodels (read where the package puts them)
// load and render with validation on, or are refused by name with exit 2 and nothing written; a
// camera from the file gives its view, and an animated node's motion vectors equal the CPU's
// reprojection.
#include "gpu_test_util.h"

#include "io/image_io.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace filterlab {
namespace {

const std::string kModels = "/usr/share/assimp/models/glTF2/";

#define SKIP_WITHOUT_MODELS() \
  if (!std::filesystem::exists(kModels)) GTEST_SKIP() << kModels << " missing: install assimp-testmodels"

std::string run_scene(const std::string& file, const std::string& more = "") {
  return "run --headless --validation --size 64x48 --frames 2 --warmup 0 --quiet --scene " + file + " " +
         more;
}

TEST(Gltf, TheGoodSamplesLoadAndRenderWithNoMessage) {
  SKIP_WITHOUT_MODELS();
  for (const char* file :
       {"BoxTextured-glTF/BoxTextured.gltf", "BoxTextured-glTF-Binary/BoxTextured.glb",
        "BoxTextured-glTF-Embedded/BoxTextured.gltf",
        "BoxTextured-glTF-pbrSpecularGlossiness/BoxTextured.gltf",
        "2CylinderEngine-glTF-Binary/2CylinderEngine.glb", "ClearCoat-glTF/ClearCoatTest.gltf",
        "glTF-Sample-Models/AnimatedMorphCube-glTF/AnimatedMorphCube.gltf", "simple_skin/simple_skin.gltf",
        "cameras/Cameras.gltf", "textureTransform/TextureTransformTest.gltf"}) {
    const auto r = test::run_binary(run_scene(kModels + file));
    EXPECT_EQ(r.exit_code, 0) << file << "\n" << r.output;
    EXPECT_EQ(r.output.find("validation"), std::string::npos) << file << "\n" << r.output;
  }
}

TEST(Gltf, TheBadSamplesAreRefusedByNameAndNothingIsWritten) {
  SKIP_WITHOUT_MODELS();
  const std::string dir = test::temp_dir("gltf-bad");
  const std::pair<const char*, const char*> bad[] = {
      {"IndexOutOfRange/IndexOutOfRange.gltf", "index 255 is out of range (24 vertices)"},
      {"IndexOutOfRange/AllIndicesOutOfRange.gltf", "is out of range"},
      {"SchemaFailures/sceneWrongType.gltf", "scene is not a whole number"},
      {"RecursiveNodes/RecursiveNodes.gltf", "(a cycle)"},
      {"MissingBin/BoxTextured.gltf", "File not found : BoxTextured0.bin"},
      {"BoxWithInfinites-glTF-Binary/BoxWithInfinites.glb", "is not a finite number"},
      {"IncorrectVertexArrays/Cube.gltf", "not whole triangles"},
      {"wrongTypes/badArray.gltf", "primitives is not an array"},
      {"wrongTypes/badExtension.gltf", "KHR_texture_transform is not an object"},
      {"wrongTypes/badNumber.gltf", "scale is not a number"},
      {"wrongTypes/badObject.gltf", "pbrMetallicRoughness is not an object"},
      {"wrongTypes/badString.gltf", "name is not a string"},
      {"wrongTypes/badUint.gltf", "index is not a whole number >= 0"},
      {"BoxTextured-glTF-techniqueWebGL/BoxTextured.gltf", "requires extension KHR_technique_webgl"},
      {"draco/2CylinderEngine.gltf", "requires extension KHR_draco_mesh_compression"},
  };
  for (const auto& [file, why] : bad) {
    const auto r = test::run_binary(run_scene(kModels + file, "--capture final=" + dir + "/final.png"));
    EXPECT_EQ(r.exit_code, 2) << file << "\n" << r.output;
    EXPECT_NE(r.output.find(std::string("cannot read ") + kModels + file + ": glTF: "), std::string::npos)
        << file << "\n"
        << r.output;
    EXPECT_NE(r.output.find(why), std::string::npos) << file << "\n" << r.output;
    EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1) << "one line: " << r.output;
    EXPECT_TRUE(std::filesystem::is_empty(dir)) << file;
  }
  const auto camera = test::run_binary(run_scene(kModels + "cameras/Cameras.gltf", "--scene-camera nosuch"));
  EXPECT_EQ(camera.exit_code, 2) << camera.output;
  EXPECT_NE(camera.output.find("no camera 'nosuch'"), std::string::npos) << camera.output;
  std::filesystem::remove_all(dir);
}

std::string base64(const std::string& bytes) {
  static const char* digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (size_t i = 0; i < bytes.size(); i += 3) {
    uint32_t n = uint32_t(uint8_t(bytes[i])) << 16;
    if (i + 1 < bytes.size()) n |= uint32_t(uint8_t(bytes[i + 1])) << 8;
    if (i + 2 < bytes.size()) n |= uint32_t(uint8_t(bytes[i + 2]));
    out += digits[n >> 18 & 63];
    out += digits[n >> 12 & 63];
    out += i + 1 < bytes.size() ? digits[n >> 6 & 63] : '=';
    out += i + 2 < bytes.size() ? digits[n & 63] : '=';
  }
  return out;
}

// A 2 x 2 quad, emitting 10, at z = -5 facing a camera at the origin (yfov 1 rad), moved along +x at `speed`
// units a second by a linear translation animation; one data-URI buffer.
std::string quad_scene(float speed) {
  const float positions[] = {-1, -1, 0, 1, -1, 0, 1, 1, 0, -1, 1, 0};
  const uint16_t indices[] = {0, 1, 2, 0, 2, 3};
  const float times[] = {0, 10}, moves[] = {0, 0, -5, 10 * speed, 0, -5};
  std::string data(reinterpret_cast<const char*>(positions), sizeof positions);
  data.append(reinterpret_cast<const char*>(indices), sizeof indices);
  data.append(reinterpret_cast<const char*>(times), sizeof times);
  data.append(reinterpret_cast<const char*>(moves), sizeof moves);
  return R"({"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0, 1]}],
  "nodes": [{"name": "quad", "mesh": 0, "translation": [0, 0, -5]}, {"name": "eye", "camera": 0}],
  "cameras": [{"name": "eye", "type": "perspective", "perspective": {"yfov": 1.0, "znear": 0.1, "zfar": 100}}],
  "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1, "material": 0}]}],
  "extensionsUsed": ["KHR_materials_emissive_strength"],
  "materials": [{"pbrMetallicRoughness": {"baseColorFactor": [1, 1, 1, 1]}, "emissiveFactor": [1, 1, 1],
                 "extensions": {"KHR_materials_emissive_strength": {"emissiveStrength": 10}}}],
  "animations": [{"channels": [{"sampler": 0, "target": {"node": 0, "path": "translation"}}],
                  "samplers": [{"input": 2, "output": 3, "interpolation": "LINEAR"}]}],
  "accessors": [
    {"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3", "min": [-1, -1, 0], "max": [1, 1, 0]},
    {"bufferView": 1, "componentType": 5123, "count": 6, "type": "SCALAR"},
    {"bufferView": 2, "componentType": 5126, "count": 2, "type": "SCALAR", "min": [0], "max": [10]},
    {"bufferView": 3, "componentType": 5126, "count": 2, "type": "VEC3"}],
  "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 48}, {"buffer": 0, "byteOffset": 48, "byteLength": 12},
                  {"buffer": 0, "byteOffset": 60, "byteLength": 8}, {"buffer": 0, "byteOffset": 68, "byteLength": 24}],
  "buffers": [{"byteLength": 92, "uri": "data:application/octet-stream;base64,)" +
         base64(data) + R"("}]})";
}

// The file's camera gives its view: the quad covers the pixels a CPU projection puts it on. Its
// animation moves it, and the motion image says by how much: the CPU's reprojection within 1e-3 px.
TEST(Gltf, AFileCameraGivesItsViewAndAnAnimatedNodeItsMotion) {
  const std::string dir = test::temp_dir("gltf-quad");
  const float speed = 0.6f;  // units a second: 0.01 a frame at 60 frames a second
  std::ofstream(dir + "/quad.gltf") << quad_scene(speed);
  const auto r =
      test::run_binary("run --headless --validation --size 64x64 --frames 3 --warmup 0 --quiet --scene " +
                       dir + "/quad.gltf --scene-camera eye --capture scene=" + dir +
                       "/scene.pfm --capture motion=" + dir + "/motion.pfm");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const io::ImageF scene = io::read_pfm(dir + "/scene.pfm"), motion = io::read_pfm(dir + "/motion.pfm");
  // Frame 2 at t = 2/60 s: the quad spans x in [-1, 1] + 0.02 at z = -5.
  const double t = 2.0 / 60.0, focal = 1.0 / std::tan(0.5);  // NDC per unit of x / -z
  auto pixel_x = [&](double x) { return (x / 5.0 * focal * 0.5 + 0.5) * 64.0; };
  const double left = pixel_x(-1 + speed * t), right = pixel_x(1 + speed * t);
  for (uint32_t x = 0; x < 64; ++x) {
    const double centre = x + 0.5;
    if (std::abs(centre - left) < 1 || std::abs(centre - right) < 1) continue;  // edge pixels
    const bool inside = centre > left && centre < right;
    const float red = scene.at(x, 32, 0);
    // The quad: lit white plus an emission of 10 (KHR_materials_emissive_strength); the built-in
    // sky behind it is below 2.
    EXPECT_EQ(red > 10.0f, inside) << "x " << x << " red " << red << " quad " << left << ".." << right;
  }
  const double expected = pixel_x(speed * t) - pixel_x(speed * (t - 1.0 / 60.0));  // one frame's move, px
  EXPECT_NEAR(motion.at(32, 32, 0), expected, 1e-3) << "expected " << expected;
  EXPECT_NEAR(motion.at(32, 32, 1), 0.0, 1e-3);
  std::filesystem::remove_all(dir);
}

// Issue #54's probe: a glTF 1.0 file, a .glb of container version 1 or 99 and an unknown
// interpolation were accepted; a buffer URI naming /dev/zero or a folder said "File not found".
// Each is now refused by the loader (exit 2 from `run`), saying what is wrong.
TEST(Gltf, VersionsEnumerationsAndSpecialFilesAreRefusedByName) {
  const std::string dir = test::temp_dir("gltf-versions");
  const std::string good = quad_scene(0.6f);
  auto replaced = [&](const std::string& from, const std::string& to) {
    std::string s = good;
    const size_t at = s.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return s.replace(at, from.size(), to);
  };
  // A .glb: header (magic, version, length), one JSON chunk padded with blanks.
  auto glb = [](const std::string& json, uint32_t version) {
    std::string chunk = json;
    while (chunk.size() % 4) chunk += ' ';
    auto word = [](uint32_t v) { return std::string(reinterpret_cast<const char*>(&v), 4); };
    return word(0x46546C67u) + word(version) + word(uint32_t(12 + 8 + chunk.size())) +
           word(uint32_t(chunk.size())) + word(0x4E4F534Au) + chunk;
  };
  std::filesystem::create_directories(dir + "/folder");
  std::filesystem::create_symlink("/dev/zero", dir + "/zero");  // a URI is relative to the file
  const std::vector<std::tuple<std::string, std::string, std::string>> cases = {
      {"v1.gltf", replaced(R"("version": "2.0")", R"("version": "1.0")"), "filterlab reads glTF 2.0"},
      {"min.gltf", replaced(R"("version": "2.0")", R"("version": "2.0", "minVersion": "2.1")"),
       "asset.minVersion 2.1"},
      {"odd.gltf", replaced(R"("version": "2.0")", R"("version": "two")"), "is not MAJOR.MINOR"},
      {"lerp.gltf", replaced(R"("interpolation": "LINEAR")", R"("interpolation": "SLERP")"),
       "interpolation 'SLERP'"},
      {"zero.gltf", replaced(R"("uri": "data:)", R"("uri": "zero", "x": ")"), "a character device"},
      {"folder.gltf", replaced(R"("uri": "data:)", R"("uri": "folder", "x": ")"), "it is a folder"},
      {"v1.glb", glb(good, 1), "container version 1"},
      {"v99.glb", glb(good, 99), "container version 99"}};
  for (const auto& [name, text, message] : cases) {
    std::ofstream(dir + "/" + name, std::ios::binary) << text;
    const auto r = test::run_binary("run --headless --frames 1 --size 32x32 --scene " + dir + "/" + name);
    EXPECT_EQ(r.exit_code, 2) << name << "\n" << r.output;
    EXPECT_NE(r.output.find(message), std::string::npos) << name << "\n" << r.output;
  }
  std::ofstream(dir + "/ok.glb", std::ios::binary) << glb(good, 2);
  const auto ok = test::run_binary("run --headless --frames 1 --size 32x32 --scene " + dir + "/ok.glb");
  EXPECT_EQ(ok.exit_code, 0) << ok.output;
  std::filesystem::remove_all(dir);
}

// Found by reading the loader with the fuzzer's eye: a deep hierarchy is walked without recursion
// (a chain of 100,000 nodes, about 2 MB of JSON, loads and draws: recursion would overflow the stack,
// the old cycle check took time quadratic in the depth), and an accessor without data may not ask
// for more elements than the file has bytes (32 M zero vertices from a 2 KB file).
TEST(Gltf, DeepHierarchiesLoadAndAccessorsWithoutDataAreBoundedByTheFile) {
  const std::string dir = test::temp_dir("gltf-deep");
  nlohmann::json deep = nlohmann::json::parse(quad_scene(0.0f));
  constexpr int kDepth = 100000;
  nlohmann::json nodes = nlohmann::json::array();
  for (int i = 0; i < kDepth - 1; ++i) nodes.push_back({{"children", {i + 1}}});
  nodes.push_back({{"mesh", 0}, {"translation", {0, 0, -5}}});
  nodes.push_back(deep["nodes"][1]);  // the camera
  deep["nodes"] = nodes;
  deep["scenes"] = {{{"nodes", {0, kDepth}}}};
  deep.erase("animations");
  std::ofstream(dir + "/deep.gltf") << deep.dump();
  const auto r = test::run_binary(run_scene(dir + "/deep.gltf", "--scene-camera eye"));
  EXPECT_EQ(r.exit_code, 0) << r.output;

  nlohmann::json zeros = nlohmann::json::parse(quad_scene(0.0f));
  zeros["accessors"][0].erase("bufferView");
  zeros["accessors"][0]["count"] = 1 << 25;
  std::ofstream(dir + "/zeros.gltf") << zeros.dump();
  const auto z = test::run_binary(run_scene(dir + "/zeros.gltf"));
  EXPECT_EQ(z.exit_code, 2) << z.output;
  EXPECT_NE(z.output.find("33554432 elements without a buffer view"), std::string::npos) << z.output;
  std::filesystem::remove_all(dir);
}

// A .glb whose image lies in a buffer view running past its buffer (found by the fuzzer: tinygltf
// hands such a view to the image decoder unchecked, which read past the heap block) is refused by
// name, before anything is decoded.
TEST(Gltf, AnImageInABufferViewPastItsBufferIsRefused) {
  const std::string dir = test::temp_dir("gltf-image-view");
  const std::filesystem::path found =
      std::filesystem::path(FILTERLAB_SOURCE_DIR) /
      "tests/fuzz/regressions/gltf/crash-bd2ceb541104da7576c807cd8036f673321cf51f";
  std::filesystem::copy_file(found, dir + "/scene.glb");
  const auto r = test::run_binary(run_scene(dir + "/scene.glb"));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("image 0: its buffer view 5 runs past the end of buffer 0"), std::string::npos)
      << r.output;
  std::filesystem::remove_all(dir);
}

// The lab scene (assets/lab/lab.glb, scripts/make-lab-scene.py) loads with no note (nothing in it
// is skipped) and renders from its animated camera with validation on.
TEST(Gltf, TheLabSceneRendersFromItsCameraPath) {
  const std::string lab = std::string(FILTERLAB_SOURCE_DIR) + "/assets/lab/lab.glb";
  const auto r = test::run_binary(run_scene(lab, "--scene-camera path"));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output, "") << "no note, no message";
}

// A file with a camera is seen through its first camera unless another view is asked for: the
// orbit around the lab's bounds framed its 40 m floor, the lab a small platform in the sky (#54).
TEST(Gltf, AFileIsSeenThroughItsFirstCameraByDefault) {
  const std::string dir = test::temp_dir("gltf-default-view");
  const std::string lab = std::string(FILTERLAB_SOURCE_DIR) + "/assets/lab/lab.glb";
  auto final_image = [&](const std::string& view) {
    const std::string out = dir + "/final.png";
    const auto r = test::run_binary("run --headless --validation --size 96x54 --frames 1 --warmup 0 --quiet --scene " +
                                    lab + " " + view + " --capture final=" + out);
    EXPECT_EQ(r.exit_code, 0) << view << "\n" << r.output;
    return io::read_png(out).rgba;
  };
  const std::vector<uint8_t> by_default = final_image("");
  EXPECT_EQ(by_default, final_image("--scene-camera 0"));
  EXPECT_NE(by_default, final_image("--scene-camera orbit"));
  std::filesystem::remove_all(dir);
}

// The other commands that run on a scene take a glTF one too: evaluate (the animated quad, every
// configuration, a PSNR a frame), quality, and bench for the families measured on the scene.
TEST(Gltf, EvaluateAndQualityRunOnAGltfScene) {
  const std::string dir = test::temp_dir("gltf-commands");
  std::ofstream(dir + "/quad.gltf") << quad_scene(0.6f);
  const auto evaluate =
      test::run_binary("evaluate --validation --scene " + dir +
                       "/quad.gltf --size 32x24 --frames 4 --grid 2 --json " + dir + "/e.json");
  ASSERT_EQ(evaluate.exit_code, 0) << evaluate.output;
  const auto e = nlohmann::json::parse(std::ifstream(dir + "/e.json"));
  EXPECT_EQ(e["content"], dir + "/quad.gltf");
  for (const auto& sequence : e["sequences"])
    for (const auto& config : sequence["configs"]) EXPECT_EQ(config["psnr"].size(), 4u) << config.dump();
  const auto quality =
      test::run_binary("quality --validation --scene " + dir + "/quad.gltf --size 32x24 --radii 1");
  ASSERT_EQ(quality.exit_code, 0) << quality.output;
  EXPECT_NE(quality.output.find("on the tonemapped quad.gltf"), std::string::npos) << quality.output;
  // bench: the families measured on the scene (bigblur) run on the glTF, from its camera.
  const auto bench =
      test::run_binary("bench --validation --filter bigblur --methods comp.exact --scene " + dir +
                       "/quad.gltf --scene-camera eye --sizes 32x24 --frames 2 --warmup 0 "
                       "--warmup-ms 0 --quiet --json " +
                       dir + "/b.json");
  ASSERT_EQ(bench.exit_code, 0) << bench.output;
  EXPECT_EQ(nlohmann::json::parse(std::ifstream(dir + "/b.json"))["scene"], dir + "/quad.gltf");
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace filterlab
