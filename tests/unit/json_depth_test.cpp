// JSON nested 20,000 deep (a glTF's `extras`) overflowed the stack while it was parsed: SIGSEGV, exit
// 139 (issue #54). Every JSON reader now refuses nesting past io::kMaxJsonDepth before it parses.
#include "filters/auto_method.h"
#include "filters/chain.h"
#include "io/input_file.h"
#include "preset.h"
#include "scene/gltf_scene.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

using namespace filterlab;

namespace {

std::string nested(int depth) {
  return std::string(size_t(depth), '[') + std::string(size_t(depth), ']');
}

std::filesystem::path write_temp(const std::string& name, const std::string& text) {
  const auto path =
      std::filesystem::temp_directory_path() / ("filterlab-" + std::to_string(::getpid()) + "-" + name);
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

TEST(JsonDepth, DeepNestingIsFoundOutsideStringsOnly) {
  EXPECT_EQ(io::json_too_deep(nested(io::kMaxJsonDepth)), "");
  EXPECT_NE(io::json_too_deep(nested(io::kMaxJsonDepth + 1)), "");
  EXPECT_EQ(io::json_too_deep("{\"a\": \"" + std::string(1000, '[') + "\"}"), "") << "brackets in a string";
  EXPECT_EQ(io::json_too_deep("[\"\\\"[[[\"]"), "") << "an escaped quote does not end the string";
  EXPECT_NE(io::json_too_deep("{\"extras\": " + nested(20000) + "}").find("deeper than"), std::string::npos);
}

TEST(JsonDepth, EveryReaderRefusesDeepNestingWithoutCrashing) {
  const std::string deep = nested(20000);
  const auto gltf = write_temp("deep.gltf", "{\"asset\": {\"version\": \"2.0\"}, \"extras\": " + deep + "}");
  try {
    scene::load_gltf(gltf, std::nullopt);
    ADD_FAILURE() << "a glTF nested 20,000 deep was accepted";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("deeper than"), std::string::npos) << e.what();
  }
  const auto preset = write_temp("deep.json", "{\"chain\": " + deep + "}");
  try {
    app::load_preset(preset);
    ADD_FAILURE() << "a preset nested 20,000 deep was accepted";
  } catch (const app::PresetError& e) {
    EXPECT_NE(std::string(e.what()).find("deeper than"), std::string::npos) << e.what();
  }
  EXPECT_THROW(filters::parse_tune_table("{\"tables\": " + deep + "}", "tune.json"), filters::ChainError);
  std::filesystem::remove(gltf);
  std::filesystem::remove(preset);
}

}  // namespace
