// The layers of the code, bottom up: an #include "folder/..." may name its own folder or a lower
// layer, never a higher one (nor a sibling of its own layer). Folders are renderer/<folder> and
// app (with app/ui); shaders' contract headers ("filters/<family>/<family>_config.h") count as
// their folder. Includes without a folder (the same folder's files, shaders/config.h) and
// third_party glue (vkfft/) are not checked.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <string>
#include <vector>

namespace {

const std::map<std::string, int> kLayer = {
    {"io", 0},      {"scene", 0},   {"common", 1}, {"vk", 1},  {"graph", 2}, {"passes", 3},
    {"filters", 4}, {"runtime", 5}, {"bench", 6},  {"app", 7}, {"ui", 7},
};

// Every include of `root`'s sources that reaches above its own layer, as "file:line includes x".
std::vector<std::string> upward_includes(const std::filesystem::path& root) {
  const std::regex include(R"(^\s*#\s*include\s*"([a-z_]+)/)");
  std::vector<std::string> found;
  for (const char* top : {"renderer", "app"})
    for (const auto& entry : std::filesystem::recursive_directory_iterator(root / top)) {
      const std::string ext = entry.path().extension().string();
      if (ext != ".h" && ext != ".cpp") continue;
      const std::filesystem::path rel = entry.path().lexically_relative(root);
      auto part = rel.begin();
      const std::string folder = *part == "app" ? "app" : (++part)->string();
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
  EXPECT_TRUE(found.empty()) << "includes against the layer order (io, scene | common, vk | graph | passes | "
                                "filters | runtime | bench | app):\n"
                             << all;
}

}  // namespace
