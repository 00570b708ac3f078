// The SPIR-V checks every module passes as it loads (vk/pipelines.h), beyond Debian 12's spirv-val:
// on hand-made modules, and on every module the build made, so that a shader that only a newer
// validator (NVIDIA's layer, Debian 13's) would reject fails here, on any machine.
#include "vk/pipelines.h"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

using namespace filterlab;

namespace {

// A module's words after the header: `int` (id 1, signed 32-bit), a constant `value` of it (id 2), an
// access chain (id 4, base id 3) indexed by it. Only what the check reads, not a valid module.
std::vector<uint32_t> chain_indexed_by(int32_t value, uint32_t opcode = 65) {
  const auto op = [](uint32_t count, uint32_t code) { return count << 16 | code; };
  return {0x07230203u,
          0x00010300u,
          0,
          8,
          0,  // magic, version, generator, id bound, schema
          op(4, 21),
          1,
          32,
          1,  // OpTypeInt %1 32 signed
          op(4, 43),
          1,
          2,
          static_cast<uint32_t>(value),  // OpConstant %1 %2 value
          op(5, opcode),
          5,
          4,
          3,
          2};  // OpAccessChain %5 %4 %3 %2
}

TEST(SpirvChecks, ANegativeConstantIndexIsFound) {
  EXPECT_NE(vk::negative_constant_index(chain_indexed_by(-1)), "");
  EXPECT_NE(vk::negative_constant_index(chain_indexed_by(-1, 66)), "");  // OpInBoundsAccessChain
  EXPECT_EQ(vk::negative_constant_index(chain_indexed_by(0)), "");
  EXPECT_EQ(vk::negative_constant_index(chain_indexed_by(7)), "");
  // OpPtrAccessChain's first index is an element offset, which may be negative.
  EXPECT_EQ(vk::negative_constant_index(chain_indexed_by(-1, 67)), "");
}

TEST(SpirvChecks, NoBuiltModuleHasANegativeConstantIndex) {
  size_t modules = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(FILTERLAB_SHADER_DIR)) {
    if (entry.path().extension() != ".spv") continue;
    std::ifstream in(entry.path(), std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::vector<uint32_t> words(bytes.size() / 4);
    std::memcpy(words.data(), bytes.data(), words.size() * 4);
    EXPECT_EQ(vk::negative_constant_index(words), "") << entry.path();
    ++modules;
  }
  EXPECT_GT(modules, 100u) << "the build's modules, under " << FILTERLAB_SHADER_DIR;
}

}  // namespace

namespace {

// A module's words after the header: one OpExtension naming `name`, then an OpCapability.
std::vector<uint32_t> declaring(const std::string& name) {
  std::vector<uint32_t> text((name.size() + 4) / 4, 0);
  std::memcpy(text.data(), name.data(), name.size());
  std::vector<uint32_t> words = {0x07230203u, 0x00010300u, 0, 8, 0, uint32_t(1 + text.size()) << 16 | 10};
  words.insert(words.end(), text.begin(), text.end());
  words.insert(words.end(), {2u << 16 | 17, 5288});  // OpCapability ComputeDerivativeGroupQuads
  return words;
}

// Debian 13's lavapipe has only VK_KHR_compute_shader_derivatives: a module declaring the NV name
// (all Debian 12's glslang can write) is declared with the KHR one for it, the rest untouched.
TEST(SpirvChecks, AnExtensionIsRenamedAndNothingElse) {
  const std::string nv = "SPV_NV_compute_shader_derivatives", khr = "SPV_KHR_compute_shader_derivatives";
  EXPECT_EQ(vk::renamed_extension(declaring(nv), nv, khr), declaring(khr));
  EXPECT_EQ(vk::renamed_extension(declaring("SPV_KHR_other"), nv, khr), declaring("SPV_KHR_other"));
  // A name of another length: the instruction's word count follows it.
  EXPECT_EQ(vk::renamed_extension(declaring(nv), nv, "SPV_X"), declaring("SPV_X"));
}

}  // namespace
