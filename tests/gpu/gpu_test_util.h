#pragma once
// Shared helpers for the GPU tier: every run has validation on and must report zero messages.
#include "runtime/headless_runner.h"
#include "vk/pipelines.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <string>

namespace filterlab::test {

inline runtime::RunOptions validated_run(uint32_t width, uint32_t height) {
  runtime::RunOptions o;
  o.size = {width, height};
  o.frames = 3;
  o.warmup = 1;
  o.validation = true;
  o.shader_dir = FILTERLAB_SHADER_DIR;
  o.print_table = false;
  return o;
}

// One validated context (synchronization validation included) per suite: creating one per case
// would dominate the run time. Any validation message fails the case that caused it.
class ValidatedSuite : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { set_up(false); }
  // As the application asks for it: compute-shader derivatives where the device has them (suites
  // that run every method call this from their SetUpTestSuite).
  static void set_up(bool compute_derivatives) {
    vk::ContextOptions options;
    options.validation = true;
    options.compute_derivatives = compute_derivatives;
    context_ = std::make_unique<vk::Context>(options);
    shaders_ = std::make_unique<vk::ShaderSource>(vk::ShaderSource{FILTERLAB_SHADER_DIR, std::nullopt});
  }
  static void TearDownTestSuite() {
    shaders_.reset();
    context_.reset();
  }
  void TearDown() override { EXPECT_EQ(context_->validation_messages(), 0u); }

  static inline std::unique_ptr<vk::Context> context_;
  static inline std::unique_ptr<vk::ShaderSource> shaders_;
};

struct ProcessResult {
  int exit_code = -1;
  std::string output;  // stdout and stderr together
};

inline ProcessResult run_binary(const std::string& args, const std::string& env = "") {
  const std::string command = env + " " FILTERLAB_BINARY " " + args + " 2>&1";
  ProcessResult r;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return r;
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) r.output.append(buffer, n);
  const int status = pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

inline std::string temp_dir(const std::string& name) {
  auto dir =
      std::filesystem::temp_directory_path() / ("filterlab-" + name + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

}  // namespace filterlab::test
