#include "glfw_window.h"

#include "vk/check.h"

#define GLFW_INCLUDE_VULKAN
#include <GLFW/glfw3.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <thread>

namespace filterlab::app {

namespace {

// GLFW's description of its latest error (and clears it), or `fallback` when it has none.
std::string glfw_error(const char* fallback) {
  const char* description = nullptr;
  return glfwGetError(&description) != GLFW_NO_ERROR && description ? description : fallback;
}

}  // namespace

Glfw::Glfw() {
  // An X server refuses connections for a moment while it resets after its last client left
  // (Xvfb under xvfb-run does, between two windows of one test run): try again briefly.
  const char* display = std::getenv("DISPLAY");
  bool ok = glfwInit();
  for (int attempt = 0; !ok && display && *display && attempt < 20; ++attempt) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    ok = glfwInit();
  }
  if (!ok)
    throw NoDisplayError("cannot open a window: " + glfw_error("glfwInit failed") +
                         " (use filterlab run --headless, or run under xvfb-run)");
  if (!glfwVulkanSupported()) {
    glfwTerminate();
    throw vk::NoDeviceError("GLFW found no Vulkan loader for window surfaces");
  }
}

Glfw::~Glfw() {
  glfwTerminate();
}

std::vector<const char*> Glfw::instance_extensions() {
  uint32_t count = 0;
  const char** names = glfwGetRequiredInstanceExtensions(&count);
  if (!names) throw vk::NoDeviceError("GLFW cannot create Vulkan surfaces here: " + glfw_error("unknown"));
  return {names, names + count};
}

Window::Window(VkExtent2D size, const std::string& title, bool visible) {
  glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API);
  glfwWindowHint(GLFW_RESIZABLE, GLFW_TRUE);
  glfwWindowHint(GLFW_VISIBLE, visible ? GLFW_TRUE : GLFW_FALSE);
  window_ = glfwCreateWindow(int(size.width), int(size.height), title.c_str(), nullptr, nullptr);
  if (!window_) throw NoDisplayError("cannot create a window: " + glfw_error("unknown"));
}

Window::~Window() {
  glfwDestroyWindow(window_);
}

VkExtent2D Window::framebuffer() const {
  int w = 0, h = 0;
  glfwGetFramebufferSize(window_, &w, &h);
  return {uint32_t(std::max(w, 0)), uint32_t(std::max(h, 0))};
}

bool Window::minimized() const {
  const VkExtent2D fb = framebuffer();
  return glfwGetWindowAttrib(window_, GLFW_ICONIFIED) || fb.width == 0 || fb.height == 0;
}

VkSurfaceKHR Window::create_surface(VkInstance instance) const {
  VkSurfaceKHR surface = VK_NULL_HANDLE;
  VK_CHECK(glfwCreateWindowSurface(instance, window_, nullptr, &surface));
  return surface;
}

}  // namespace filterlab::app
