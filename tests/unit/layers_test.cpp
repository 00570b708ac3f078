// The layers of the code, bottom up: an #include "folder/..." may name its own folder or a lower
// layer, never a higher one (nor a sibling of its own layer). Folders are renderer/<folder>, report
// and app (with app/ui); shaders' contract headers ("filters/<family>/<family>_config.h") count as
// their folder. Includes without a folder (the same folder's files, shaders/config.h) and
// third_party glue (vkfft/) are not checked.
#include "filters/registry.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <string>
#include <vector>

namespace {

const std::map<std::string, int> kLayer = {
    {"io", 0},      {"scene", 1},   {"common", 1}, {"vk", 1},     {"graph", 2}, {"passes", 3},
    {"filters", 4}, {"runtime", 5}, {"bench", 6},  {"report", 7}, {"app", 8},   {"ui", 8},
};

// Every include of `root`'s sources that reaches above its own layer, as "file:line includes x".
std::vector<std::string> upward_includes(const std::filesystem::path& root) {
  const std::regex include(R"(^\s*#\s*include\s*"([a-z_]+)/)");
  std::vector<std::string> found;
  for (const char* top : {"renderer", "report", "app"})
    for (const auto& entry : std::filesystem::recursive_directory_iterator(root / top)) {
      const std::string ext = entry.path().extension().string();
      if (ext != ".h" && ext != ".cpp") continue;
      const std::filesystem::path rel = entry.path().lexically_relative(root);
      auto part = rel.begin();
      const std::string folder = *part == "app" || *part == "report" ? part->string() : (++part)->string();
      const auto own = kLayer.find(folder);
      if (own == kLayer.end()) {
        found.push_back(rel.string() + ": folder '" + folder + "' has no layer (add it to kLayer)");
        continue;
      }
      std::ifstream in(entry.path());
      std::string line;
      for (int n = 1; std::getline(in, line); ++n) {
        std::smatch m;
        if (!std::regex_search(line, m, include)) continue;
        const auto target = kLayer.find(m[1].str());
        if (target == kLayer.end()) continue;  // third-party glue
        if (target->first == folder || (folder == "app" && target->first == "ui")) continue;
        if (target->second >= own->second)
          found.push_back(rel.string() + ":" + std::to_string(n) + " (" + folder + ") includes " +
                          m[1].str() + "/, which is not below it");
      }
    }
  return found;
}

TEST(Layers, NoIncludeReachesUp) {
  const std::vector<std::string> found = upward_includes(FILTERLAB_SOURCE_DIR);
  std::string all;
  for (const std::string& f : found) all += "  " + f + "\n";
  EXPECT_TRUE(found.empty()) << "includes against the layer order (io | scene, common, vk | graph | passes | "
                                "filters | runtime | bench | report | app):\n"
                             << all;
}

// Every line of the sources under `root`/`folder` (comments included), as (relative path, line
// number, text), but those `skip` rejects.
template <typename Skip, typename Visit>
void for_each_line(const std::filesystem::path& root, const char* folder, Skip skip, Visit visit) {
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root / folder)) {
    const std::string ext = entry.path().extension().string();
    if (ext != ".h" && ext != ".cpp") continue;
    const std::string rel = entry.path().lexically_relative(root).string();
    if (skip(rel)) continue;
    std::ifstream in(entry.path());
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) visit(rel, n, line);
  }
}

// A family's own folder, renderer/filters/<family>/, and the one list that names every family.
bool in_a_family(const std::string& rel) {
  static const std::regex family_folder(R"(^renderer/filters/[a-z_]+/)");
  return std::regex_search(rel, family_folder) || rel == "renderer/filters/registry.cpp";
}

// Parameters are a family's: shared code reaches them through the schema's types (the size
// parameter, ParamValues::size) and never by the names of one family's parameters, comments
// included.
TEST(Layers, SharedCodeNamesNoParameterOfAFamily) {
  const std::regex literal(R"re("(radius|sigma|kernel)")re");
  std::string found;
  for (const char* folder : {"renderer", "app"})
    for_each_line(FILTERLAB_SOURCE_DIR, folder, in_a_family,
                  [&](const std::string& rel, int n, const std::string& line) {
                    if (std::regex_search(line, literal))
                      found += "  " + rel + ":" + std::to_string(n) + ": " + line + "\n";
                  });
  EXPECT_TRUE(found.empty()) << "parameter names in shared code:\n" << found;
}

// No family is special-cased in the tools: app/, report/ and renderer/bench/ name none, in code or comments
// (the floor family's name, "copy", is an English word too: only its string literals count).
TEST(Layers, TheToolsNameNoFamily) {
  std::string words;
  for (const filterlab::filters::Family* f : filterlab::filters::registry().families())
    if (f->name != "copy") words += (words.empty() ? "" : "|") + f->name;
  const std::regex named("\\b(" + words + ")\\b", std::regex::icase);
  const std::regex copy_literal(R"("copy[".:])");
  std::string found;
  for (const char* folder : {"app", "report", "renderer/bench"})
    for_each_line(
        FILTERLAB_SOURCE_DIR, folder, [](const std::string&) { return false; },
        [&](const std::string& rel, int n, const std::string& line) {
          if (std::regex_search(line, named) || std::regex_search(line, copy_literal))
            found += "  " + rel + ":" + std::to_string(n) + ": " + line + "\n";
        });
  EXPECT_TRUE(found.empty()) << "family names in the tools:\n" << found;
}

// Families do not lean on each other: a family's sources (renderer/filters/<family>/) and shaders
// (shaders/filters/<family>/) include their own folder, the common folders (filters/common/, the
// shared filters/*.h) and the layers below, never another family's folder. What two families
// share lives in the common folders (the window statistics, which variance writes and TAA's
// resolve reads: shaders/filters/common/window_statistics*). Returns "file:line includes x".
std::vector<std::string> family_to_family_includes(const std::filesystem::path& root) {
  const std::regex include(R"(^\s*#\s*include\s*"filters/([a-z_0-9]+)/)");
  std::vector<std::string> found;
  for (const char* top : {"renderer/filters", "shaders/filters"}) {
    if (!std::filesystem::is_directory(root / top)) continue;
    for (const auto& family : std::filesystem::directory_iterator(root / top)) {
      const std::string own = family.path().filename().string();
      if (!family.is_directory() || own == "common") continue;
      for (const auto& entry : std::filesystem::recursive_directory_iterator(family.path())) {
        if (!entry.is_regular_file()) continue;
        std::ifstream in(entry.path());
        std::string line;
        for (int n = 1; std::getline(in, line); ++n) {
          std::smatch m;
          if (std::regex_search(line, m, include) && m[1].str() != own && m[1].str() != "common")
            found.push_back(entry.path().lexically_relative(root).string() + ":" + std::to_string(n) + " (" +
                            own + ") includes filters/" + m[1].str() + "/");
        }
      }
    }
  }
  return found;
}

TEST(Layers, NoFamilyIncludesAnotherFamily) {
  const std::vector<std::string> found = family_to_family_includes(FILTERLAB_SOURCE_DIR);
  std::string all;
  for (const std::string& f : found) all += "  " + f + "\n";
  EXPECT_TRUE(found.empty()) << "a family's files include another family's folder:\n" << all;
}

// The check above can fail: a C++ include and a GLSL include of another family's folder, in a tree
// made for it, are both found (and an include of the common folder is not).
TEST(Layers, AFamilyToFamilyIncludeIsFound) {
  const std::filesystem::path root =
      std::filesystem::temp_directory_path() / ("filterlab-layers-" + std::to_string(::getpid()));
  std::filesystem::remove_all(root);
  for (const char* dir : {"renderer/filters/alpha", "renderer/filters/beta", "shaders/filters/alpha",
                          "shaders/filters/beta", "shaders/filters/common"})
    std::filesystem::create_directories(root / dir);
  std::ofstream(root / "renderer/filters/alpha/alpha.cpp") << "#include \"filters/alpha/alpha.h\"\n"
                                                           << "#include \"filters/beta/beta.h\"\n";
  std::ofstream(root / "shaders/filters/alpha/alpha.comp")
      << "#include \"filters/common/window.glsl\"\n"
      << "  #include \"filters/beta/beta_window.glsl\"\n";
  const std::vector<std::string> found = family_to_family_includes(root);
  std::filesystem::remove_all(root);
  ASSERT_EQ(found.size(), 2u);
  EXPECT_NE(found[0].find("includes filters/beta/"), std::string::npos) << found[0];
  EXPECT_NE(found[1].find("includes filters/beta/"), std::string::npos) << found[1];
}

// What the registry gives every family (`auto`, from the family's auto_table.json) no family wires
// itself: no family source includes filters/auto_method.h or filters/registry.h.
TEST(Layers, NoFamilyWiresWhatTheRegistryGives) {
  const std::regex include(R"(^\s*#\s*include\s*"filters/(auto_method|registry)\.h")");
  std::string found;
  const std::filesystem::path root = std::filesystem::path(FILTERLAB_SOURCE_DIR) / "renderer/filters";
  for (const auto& family : std::filesystem::directory_iterator(root)) {
    if (!family.is_directory()) continue;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(family.path())) {
      if (!entry.is_regular_file()) continue;
      std::ifstream in(entry.path());
      std::string line;
      for (int n = 1; std::getline(in, line); ++n)
        if (std::regex_search(line, include))
          found += "  " + entry.path().string() + ":" + std::to_string(n) + "\n";
    }
  }
  EXPECT_TRUE(found.empty()) << "a family includes what the registry gives it:\n" << found;
}

}  // namespace
