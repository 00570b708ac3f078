#pragma once
// Specialization constants by id: what a shader's `layout(constant_id = ID)` reads, the ids named in
// the shaders' *_config.h (shared by C++ and GLSL), so that no constant is placed by its position.
// The pipelines take the words indexed by id (vk/pipelines.h); an id below the largest set that was
// not set is 0.
#include <bit>
#include <cstdint>
#include <vector>

namespace filterlab::vk {

class Specialization {
 public:
  Specialization& set(uint32_t id, uint32_t value) {
    if (words_.size() <= id) words_.resize(id + 1, 0);
    words_[id] = value;
    return *this;
  }
  Specialization& set(uint32_t id, int value) { return set(id, uint32_t(value)); }
  Specialization& set(uint32_t id, bool value) { return set(id, value ? 1u : 0u); }
  Specialization& set(uint32_t id, float value) { return set(id, std::bit_cast<uint32_t>(value)); }
  Specialization& set(uint32_t id, double value) = delete;  // say float: the shader's constants are
  const std::vector<uint32_t>& words() const { return words_; }

 private:
  std::vector<uint32_t> words_;
};

}  // namespace filterlab::vk
