// Linked into every executable of the sanitizer build (FILTERLAB_SANITIZE) only: dlclose() does
// nothing. The Vulkan loader unloads its drivers and layers (Mesa's lavapipe, device_select, the
// validation layer) at vkDestroyInstance; LeakSanitizer runs at exit, when their globals are no
// longer scanned (memory they still point to is reported as leaked) and their frames can no longer
// be named (a stack frame in an unloaded library is "<unknown module>", which no suppression in
// tests/sanitize/lsan.supp can match). Kept loaded, their leaks are named and suppressed by library.
extern "C" int dlclose(void*) { return 0; }
