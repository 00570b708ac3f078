#pragma once
// GLFW for the window app: the library's lifetime (with the X server's reset taken into account)
// and one window without a client API, for a Vulkan surface.
#include "vk/check.h"

#include <vulkan/vulkan.h>

#include <string>
#include <vector>

struct GLFWwindow;

namespace filterlab::app {

// GLFW could not open a window (no DISPLAY, no X server). Exit code 3, like a missing device.
class NoDisplayError : public vk::NoDeviceError {
 public:
  using vk::NoDeviceError::NoDeviceError;
};

class Glfw {
 public:
  // Throws NoDisplayError without an X server, vk::NoDeviceError without a Vulkan loader.
  Glfw();
  ~Glfw();
  Glfw(const Glfw&) = delete;
  Glfw& operator=(const Glfw&) = delete;

  // What a Vulkan instance needs for window surfaces; valid until GLFW terminates.
  static std::vector<const char*> instance_extensions();
};

class Window {
 public:
  Window(VkExtent2D size, const std::string& title, bool visible);
  ~Window();
  Window(const Window&) = delete;
  Window& operator=(const Window&) = delete;
  GLFWwindow* get() const { return window_; }

  VkExtent2D framebuffer() const;
  bool minimized() const;  // iconified, or a 0x0 framebuffer
  VkSurfaceKHR create_surface(VkInstance instance) const;

 private:
  GLFWwindow* window_ = nullptr;
};

}  // namespace filterlab::app
