#include "vkfft/fft_plan.h"

#include <vkFFT.h>

#include <string>

namespace filterlab::vkfft {
namespace {

void check(VkFFTResult result, const char* what) {
  if (result != VKFFT_SUCCESS) throw Error(std::string("VkFFT: ") + what + " failed (VkFFTResult " +
                                           std::to_string(int(result)) + ")");
}

bool smooth(uint32_t n) {
  for (uint32_t p : {2u, 3u, 5u, 7u})
    while (n % p == 0) n /= p;
  return n == 1;
}

}  // namespace

uint64_t spectrum_bytes(uint32_t width, uint32_t height, uint32_t planes) {
  return uint64_t(width / 2 + 1) * 2 * sizeof(float) * height * planes;
}

uint32_t good_size(uint32_t at_least) {
  // Even on both axes: the real-to-complex axis needs it, and on the other an odd length measured
  // far slower on the H100 at 4K than the even ones beside it (docs/families/convolve.md).
  for (uint32_t n = at_least < 2 ? 2 : at_least;; ++n)
    if (n % 2 == 0 && smooth(n)) return n;
}

struct R2CPlan::State {
  // VkFFT keeps pointers to these for the plan's life.
  VkPhysicalDevice physical = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  VkQueue queue = VK_NULL_HANDLE;
  VkCommandPool pool = VK_NULL_HANDLE;
  VkFence fence = VK_NULL_HANDLE;
  // The buffer, twice: VkFFT rebinds a plan to another buffer when a launch points at a VkBuffer
  // variable other than the one its configuration points at, and keeps the first pointer for its
  // input and output. So both slots always hold the current buffer, and a change is announced
  // through the other slot.
  VkBuffer slots[2] = {VK_NULL_HANDLE, VK_NULL_HANDLE};
  int current = 0;
  uint64_t bytes = 0;
  VkBuffer kernel = VK_NULL_HANDLE;
  uint64_t kernel_bytes = 0;
  VkFFTApplication app{};
  bool initialized = false;

  ~State() {
    if (initialized) deleteVkFFT(&app);
    if (fence) vkDestroyFence(device, fence, nullptr);
    if (pool) vkDestroyCommandPool(device, pool, nullptr);
  }

  void record(VkCommandBuffer cmd, VkBuffer target, int direction) {
    if (target != slots[current]) {
      current = 1 - current;
      slots[0] = slots[1] = target;
    }
    VkFFTLaunchParams launch{};
    launch.commandBuffer = &cmd;
    launch.buffer = &slots[current];
    check(VkFFTAppend(&app, direction, &launch), direction < 0 ? "forward transform" : "inverse transform");
  }
};

R2CPlan::R2CPlan(const Device& device, uint32_t width, uint32_t height, uint32_t planes, VkBuffer buffer, Role role,
                 VkBuffer kernel, uint32_t kernel_planes)
    : state_(std::make_unique<State>()) {
  State& s = *state_;
  s.physical = device.physical;
  s.device = device.device;
  s.queue = device.queue;
  s.slots[0] = s.slots[1] = buffer;
  s.bytes = spectrum_bytes(width, height, planes);
  VkCommandPoolCreateInfo pool{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pool.queueFamilyIndex = device.queue_family;
  if (vkCreateCommandPool(s.device, &pool, nullptr, &s.pool) != VK_SUCCESS) throw Error("VkFFT: no command pool");
  VkFenceCreateInfo fence{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  if (vkCreateFence(s.device, &fence, nullptr, &s.fence) != VK_SUCCESS) throw Error("VkFFT: no fence");

  VkFFTConfiguration c{};
  c.FFTdim = 2;
  c.size[0] = width;
  c.size[1] = height;
  c.numberBatches = planes;
  c.performR2C = 1;
  c.normalize = 1;
  // In convolution mode a one-plane kernel serves every batch; a kernel of a plane per image plane
  // makes the planes coordinate features, each multiplied by its own.
  if (role == Role::ConvolutionKernel) {
    c.kernelConvolution = 1;
    if (planes > 1) {
      c.coordinateFeatures = planes;
      c.numberBatches = 1;
    }
  }
  if (role == Role::Convolution) {
    s.kernel = kernel;
    s.kernel_bytes = spectrum_bytes(width, height, kernel_planes);
    c.performConvolution = 1;
    c.kernel = &s.kernel;
    c.kernelSize = &s.kernel_bytes;
    if (kernel_planes > 1) {
      c.coordinateFeatures = planes;
      c.numberBatches = 1;
    }
  }
  c.physicalDevice = &s.physical;
  c.device = &s.device;
  c.queue = &s.queue;
  c.commandPool = &s.pool;
  c.fence = &s.fence;
  c.buffer = &s.slots[0];
  c.bufferSize = &s.bytes;
  check(initializeVkFFT(&s.app, c), "plan creation");
  s.initialized = true;
}

R2CPlan::~R2CPlan() = default;

void R2CPlan::forward(VkCommandBuffer cmd, VkBuffer buffer) {
  state_->record(cmd, buffer, -1);
}

void R2CPlan::inverse(VkCommandBuffer cmd, VkBuffer buffer) {
  state_->record(cmd, buffer, 1);
}

void R2CPlan::convolve(VkCommandBuffer cmd, VkBuffer buffer) {
  state_->record(cmd, buffer, -1);
}

VkBuffer R2CPlan::buffer() const {
  return state_->slots[state_->current];
}

}  // namespace filterlab::vkfft
