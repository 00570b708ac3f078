// The types shared code reaches families through: vk::Specialization (constants by id) and the size
// parameter (Param::is_size, ParamValues::size).
#include "filters/chain.h"
#include "vk/specialization.h"

#include <gtest/gtest.h>

#include <bit>

namespace filterlab {
namespace {

TEST(Specialization, WordsAreIndexedByIdWithTheUnsetOnesZero) {
  vk::Specialization spec;
  spec.set(3, 7).set(1, 2.5f).set(5, true);
  const std::vector<uint32_t> expected = {0, std::bit_cast<uint32_t>(2.5f), 0, 7, 0, 1};
  EXPECT_EQ(spec.words(), expected);
  spec.set(3, uint32_t(9));  // set again: replaced, not appended
  EXPECT_EQ(spec.words()[3], 9u);
  EXPECT_EQ(spec.words().size(), 6u);
  EXPECT_TRUE(vk::Specialization().words().empty());
}

// Shared code reads a step's size through the schema's type, whatever the family names it.
TEST(SizeParameter, ParamValuesGiveItByItsRole) {
  const filters::ResolvedStep tent = filters::resolve(filters::parse_chain("tent:radius=5").at(0));
  EXPECT_EQ(tent.params.size(), 5);
  EXPECT_EQ(tent.params.size_name(), tent.family->size_param()->name);
  const filters::ResolvedStep copy = filters::resolve(filters::parse_chain("copy").at(0));
  EXPECT_EQ(copy.family->size_param(), nullptr);
  EXPECT_THROW((void)copy.params.size(), std::out_of_range);
}

}  // namespace
}  // namespace filterlab
