#include "vkfft/fft_plan.h"

#include <vkFFT.h>

#include <cmath>
#include <string>

namespace filterlab::vkfft {
namespace {

void check(VkFFTResult result, const char* what) {
  if (result != VKFFT_SUCCESS) throw Error(std::string("VkFFT: ") + what + " failed (VkFFTResult " +
                                           std::to_string(int(result)) + ")");
}

// n without its factors of 2.
uint32_t odd_part(uint32_t n) {
  while (n % 2 == 0) n /= 2;
  return n;
}

bool smooth(uint32_t n) {
  for (uint32_t p : {3u, 5u, 7u})
    while (n % p == 0) n /= p;
  return n == 1;
}

}  // namespace

uint64_t spectrum_bytes(uint32_t width, uint32_t height, uint32_t planes) {
  return uint64_t(width / 2 + 1) * 2 * sizeof(float) * height * planes;
}

uint32_t good_size(uint32_t at_least) {
  // VkFFT's time a point grows with a size's odd part (more radix-3, -5 and -7 passes than radix-2
  // ones), about kOddBitCost a bit of it, and an odd size is slower still (measured by transform
  // size on the H100: docs/families/convolve.md). So a larger size can be the faster one: the power
  // of two above at_least costs its own size, and nothing beyond it can cost less.
  constexpr double kOddBitCost = 0.011;
  uint32_t best = 0;
  double best_cost = 0;
  const uint32_t from = at_least < 2 ? 2 : at_least;
  for (uint32_t n = from; n < 2 * from; ++n) {
    if (n % 2 != 0 || !smooth(odd_part(n))) continue;
    const double cost = n * (1 + kOddBitCost * std::log2(double(odd_part(n))));
    if (best == 0 || cost < best_cost) {
      best = n;
      best_cost = cost;
    }
    if ((n & (n - 1)) == 0) break;  // a power of two: every larger size costs more
  }
  return best;
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
