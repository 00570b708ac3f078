#pragma once
// Glue over Debian's VkFFT (libvkfft-dev 1.2.26): 2D real-to-complex transforms of planes of floats
// in a Vulkan buffer, recorded into the caller's command buffer. Only this file's .cpp includes
// vkFFT.h (a header of 1.6 MB, compiled once).
//
// Layout, in place: `planes` planes one after another, each `height` rows of (width / 2 + 1)
// complex values (two floats); before the forward transform a row holds its `width` real values
// and two unused floats. The inverse is normalized: forward then inverse gives the input back.
#include <vulkan/vulkan.h>

#include <cstdint>
#include <memory>
#include <stdexcept>

namespace filterlab::vkfft {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Device {
  VkPhysicalDevice physical = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  VkQueue queue = VK_NULL_HANDLE;
  uint32_t queue_family = 0;
};

// The bytes of the layout above.
uint64_t spectrum_bytes(uint32_t width, uint32_t height, uint32_t planes);

// The smallest even size >= `at_least` made of the radices VkFFT does fastest (2, 3, 5, 7; it also
// has 11 and 13, and Bluestein's algorithm for the rest).
uint32_t good_size(uint32_t at_least);

// What a plan does with its buffer.
enum class Role {
  Transform,  // forward() and inverse()
  // forward() only, of a kernel for Convolution plans of the same size: VkFFT's convolution mode
  // reads the kernel's spectrum in the layout this makes.
  ConvolutionKernel,
  // convolve(): VkFFT's convolution mode, the product with the kernel fused into the last forward
  // and the first inverse axis, normalized. The kernel has one plane for all the buffer's planes, or
  // one per plane.
  Convolution,
};

class R2CPlan {
 public:
  // Compiles the transform's kernels (glslang, at run time: slow on a CPU device) for `buffer` of
  // `planes` planes (`kernel`: the Convolution role's kernel spectrum, of `kernel_planes`). VkFFT's own
  // buffers (a temporary for sizes it splits in four steps) are its own. Throws Error.
  R2CPlan(const Device& device, uint32_t width, uint32_t height, uint32_t planes, VkBuffer buffer,
          Role role = Role::Transform, VkBuffer kernel = VK_NULL_HANDLE, uint32_t kernel_planes = 1);
  ~R2CPlan();
  R2CPlan(const R2CPlan&) = delete;
  R2CPlan& operator=(const R2CPlan&) = delete;

  // Record the transform of `buffer`: this plan's, or another of the same size, which becomes the
  // plan's (VkFFT then rewrites its descriptor sets: no pending command buffer may be using the
  // plan). Barriers between its own dispatches are VkFFT's; the caller orders the buffer against
  // everything else.
  void forward(VkCommandBuffer cmd, VkBuffer buffer);
  void inverse(VkCommandBuffer cmd, VkBuffer buffer);
  void convolve(VkCommandBuffer cmd, VkBuffer buffer);
  VkBuffer buffer() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace filterlab::vkfft
