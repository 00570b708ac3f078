#include "vk/retire_list.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

using filterlab::vk::FrameRetireList;

namespace {

// Notes its name in `log` when the object it owns goes, like vk::Image: moving hands the object
// over, and assigning over one destroys the object it had.
struct Tracked {
  std::string name;
  std::shared_ptr<std::vector<std::string>> log;
  Tracked(std::string n, std::shared_ptr<std::vector<std::string>> l)
      : name(std::move(n)), log(std::move(l)) {}
  Tracked(Tracked&& other) noexcept : name(std::move(other.name)), log(std::exchange(other.log, nullptr)) {}
  Tracked& operator=(Tracked&& other) noexcept {
    if (this != &other) {
      destroy();
      name = std::move(other.name);
      log = std::exchange(other.log, nullptr);
    }
    return *this;
  }
  ~Tracked() { destroy(); }
  void destroy() {
    if (log) log->push_back(name);
    log = nullptr;
  }
};

}  // namespace

// An object retired with the first frame that no longer uses it lives until every frame before
// that one has finished, and no longer; 0 means no frame used it.
TEST(FrameRetireList, DestroysAnObjectOnceEveryFrameThatUsedItHasFinished) {
  auto log = std::make_shared<std::vector<std::string>>();
  FrameRetireList<Tracked> list;
  list.retire(Tracked("used by frames up to 4", log), 5);
  list.retire(Tracked("used by frame 0", log), 1);
  list.retire(Tracked("used by no frame", log), 0);
  list.retire(Tracked("used by frames up to 2", log), 3);
  EXPECT_TRUE(log->empty());
  EXPECT_EQ(list.size(), 4u);

  EXPECT_EQ(list.destroy_finished(0), 1u);  // nothing finished yet
  EXPECT_EQ(*log, (std::vector<std::string>{"used by no frame"}));
  EXPECT_EQ(list.destroy_finished(1), 1u);  // frame 0 finished
  EXPECT_EQ(list.destroy_finished(2), 0u);
  EXPECT_EQ(list.destroy_finished(2), 0u);  // asking again changes nothing
  EXPECT_EQ(list.destroy_finished(4), 1u);  // frames 0-3 finished
  EXPECT_EQ(*log,
            (std::vector<std::string>{"used by no frame", "used by frame 0", "used by frames up to 2"}));
  EXPECT_EQ(list.size(), 1u);
  EXPECT_FALSE(list.empty());
  EXPECT_EQ(list.destroy_finished(5), 1u);
  EXPECT_TRUE(list.empty());
  EXPECT_EQ(log->size(), 4u);
}

// The last action sees each object before it goes (the executor forgets buffers' barrier state
// there); destroy_all is for an owner that waited for the device.
TEST(FrameRetireList, RunsTheLastActionBeforeEachDestructionAndDestroyAllEmptiesIt) {
  FrameRetireList<int> list;
  for (int i = 0; i < 6; ++i) list.retire(i, uint64_t(i) * 2);  // object i: first unused frame 2i
  std::vector<int> seen;
  EXPECT_EQ(list.destroy_finished(5, [&](int& v) { seen.push_back(v); }), 3u);
  EXPECT_EQ(seen, (std::vector<int>{0, 1, 2}));
  list.destroy_all([&](int& v) { seen.push_back(-v); });
  EXPECT_EQ(seen, (std::vector<int>{0, 1, 2, -3, -4, -5}));
  EXPECT_TRUE(list.empty());
  EXPECT_EQ(list.destroy_finished(100), 0u);
}
