// tier: smoke
// The README's quick start, as written: the block between its `quick start` markers runs in a
// fresh folder through sh -e, `build/filterlab` being this build's binary, and every command
// succeeds and writes what it says, within the 2 minutes the README promises a CPU (lavapipe).
#include "gpu_test_util.h"
#include "window_test_util.h"

#include <chrono>
#include <fstream>
#include <sstream>

using namespace filterlab;

TEST(QuickStart, RunsAsWrittenInTheReadme) {
  SKIP_WITHOUT_DISPLAY();  // one of its commands opens the window
  std::ifstream file(std::string(FILTERLAB_SOURCE_DIR) + "/README.md");
  std::stringstream text;
  text << file.rdbuf();
  const std::string readme = text.str();
  const size_t begin = readme.find("<!-- quick start -->"), end = readme.find("<!-- end quick start -->");
  ASSERT_NE(begin, std::string::npos);
  ASSERT_NE(end, std::string::npos);
  std::string block = readme.substr(begin, end - begin);
  const size_t open = block.find("```sh\n"), close = block.rfind("```");
  ASSERT_NE(open, std::string::npos);
  ASSERT_GT(close, open);
  std::string script = block.substr(open + 6, close - open - 6);
  EXPECT_NE(script.find("build/filterlab filter "), std::string::npos) << "the quick start filters a picture";
  EXPECT_NE(script.find("build/filterlab bench "), std::string::npos);
  const std::string written = "build/filterlab", binary = FILTERLAB_BINARY;
  for (size_t at = script.find(written); at != std::string::npos;
       at = script.find(written, at + binary.size()))
    script.replace(at, written.size(), binary);
  const std::string dir = test::temp_dir("quick-start");
  { std::ofstream(dir + "/quick.sh") << script; }
  const auto start = std::chrono::steady_clock::now();
  FILE* pipe = popen(("cd " + dir + " && sh -e quick.sh 2>&1").c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string output;
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) output.append(buffer, n);
  const int status = pclose(pipe);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << output;
  for (const char* made :
       {"scene.png", "blurred.png", "timings.json", "window.png", "window.json", "bench.json", "report.html"})
    EXPECT_TRUE(std::filesystem::exists(dir + "/quick/" + made)) << made << "\n" << output;
  EXPECT_NE(output.find("gaussian.auto: "), std::string::npos) << "the default method says what it picked";
  EXPECT_LT(seconds, 120.0) << output;
  std::printf("  the quick start took %.1f s\n", seconds);
}
