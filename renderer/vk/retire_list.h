#pragma once
// "Destroy it once the frames in flight that may use it have finished", written once. An object
// replaced while frames still run is retired with the first frame that no longer uses it, and
// destroyed (dropped, after an optional last action) once every frame before that one is known to
// have finished. The owner says which frames have finished: it knows how it waits (a frame ring
// reusing a slot has waited for the slot's previous frame). Pure bookkeeping, no device calls.
//
//   FrameRetireList<vk::Image> retired;
//   retired.retire(std::move(old_image), last_recorded_frame + 1);
//   // at record(frame), the frames up to frame - frames_in_flight are done:
//   retired.destroy_finished(frame + 1 - frames_in_flight);
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace filterlab::vk {

template <typename T>
class FrameRetireList {
 public:
  // `first_unused_frame`: the first frame that does not use `object`; 0 when no frame used it.
  void retire(T object, uint64_t first_unused_frame) {
    entries_.push_back({std::move(object), first_unused_frame});
  }

  // Every frame before `first_unfinished_frame` has finished: destroys the objects only those
  // frames used, each after `before_destroy(object)`. Returns how many were destroyed.
  template <typename BeforeDestroy>
  size_t destroy_finished(uint64_t first_unfinished_frame, BeforeDestroy&& before_destroy) {
    const size_t before = entries_.size();
    std::erase_if(entries_, [&](Entry& e) {
      if (e.first_unused_frame > first_unfinished_frame) return false;
      before_destroy(e.object);
      return true;
    });
    return before - entries_.size();
  }
  size_t destroy_finished(uint64_t first_unfinished_frame) {
    return destroy_finished(first_unfinished_frame, [](T&) {});
  }

  // Every frame has finished (the owner waited for the device): destroys everything.
  template <typename BeforeDestroy>
  void destroy_all(BeforeDestroy&& before_destroy) {
    for (Entry& e : entries_) before_destroy(e.object);
    entries_.clear();
  }
  void destroy_all() { entries_.clear(); }

  size_t size() const { return entries_.size(); }
  bool empty() const { return entries_.empty(); }

 private:
  struct Entry {
    T object;
    uint64_t first_unused_frame;
  };
  std::vector<Entry> entries_;
};

}  // namespace filterlab::vk
