// A value kept in a local, or in an element or field of one, followed from
// its stores to its reads. A slot read through an index that is not a
// constant, or whose address escapes, is not followed: its stores are not
// the whole story.
#include "checks/analysis/LocalSlots.h"
#include "unittests/analysis/ParsedUnit.h"
#include "gtest/gtest.h"

namespace warpfix::test {
namespace {

TEST(LocalSlots, ElementOfALocalArrayIsASlot) {
  ParsedUnit Unit("__global__ void k(int *p) {"
                  "  unsigned mask[1];"
                  "  mask[0] = __activemask();"
                  "  p[0] = __popc(mask[0]); }");
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  std::optional<LocalSlot> Slot =
      slotStoredBy(&Unit.call("__activemask"), Unit.context());
  ASSERT_TRUE(Slot.has_value());
  EXPECT_EQ("mask[0]", Slot->name());
  SlotAccesses Accesses = accessesOf(*Slot, Unit.context());
  EXPECT_EQ(1u, Accesses.Stored.size());
  EXPECT_EQ(1u, Accesses.Reads.size());
  EXPECT_FALSE(Accesses.Unmodelled);
}

TEST(LocalSlots, FieldOfALocalStructIsASlot) {
  ParsedUnit Unit("struct S { unsigned mask; int n; };"
                  "__global__ void k(int *p) {"
                  "  S s; s.mask = __activemask(); s.n = 1;"
                  "  p[0] = __popc(s.mask); }");
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  std::optional<LocalSlot> Slot =
      slotStoredBy(&Unit.call("__activemask"), Unit.context());
  ASSERT_TRUE(Slot.has_value());
  EXPECT_EQ("s.mask", Slot->name());
  EXPECT_EQ(1u, accessesOf(*Slot, Unit.context()).Reads.size());
}

TEST(LocalSlots, ElementReadThroughAVariableIndexIsUnmodelled) {
  ParsedUnit Unit("__global__ void k(int *p, int i) {"
                  "  unsigned mask[2];"
                  "  mask[0] = __activemask(); mask[1] = 0;"
                  "  p[0] = __popc(mask[i]); }");
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  std::optional<LocalSlot> Slot =
      slotStoredBy(&Unit.call("__activemask"), Unit.context());
  ASSERT_TRUE(Slot.has_value());
  EXPECT_TRUE(accessesOf(*Slot, Unit.context()).Unmodelled);
}

TEST(LocalSlots, AddressThatEscapesIsUnmodelled) {
  ParsedUnit Unit("__device__ void keep(unsigned *);"
                  "__global__ void k(int *p) {"
                  "  unsigned m = __activemask(); keep(&m);"
                  "  p[0] = __popc(m); }");
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  std::optional<LocalSlot> Slot =
      slotStoredBy(&Unit.call("__activemask"), Unit.context());
  ASSERT_TRUE(Slot.has_value());
  EXPECT_TRUE(accessesOf(*Slot, Unit.context()).Unmodelled);
}

TEST(LocalSlots, CompoundAssignmentIsAStoreThatCannotBeFollowed) {
  ParsedUnit Unit("__global__ void k(int *p) {"
                  "  unsigned m = __activemask(); m &= 0xff;"
                  "  p[0] = __popc(m); }");
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  std::optional<LocalSlot> Slot =
      slotStoredBy(&Unit.call("__activemask"), Unit.context());
  ASSERT_TRUE(Slot.has_value());
  SlotAccesses Accesses = accessesOf(*Slot, Unit.context());
  ASSERT_EQ(2u, Accesses.Stored.size());
  EXPECT_EQ(nullptr, Accesses.Stored[1]);
}

TEST(LocalSlots, PointerTargetIsNoSlot) {
  ParsedUnit Unit("__global__ void k(unsigned *p) {"
                  "  p[0] = __activemask(); }");
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  EXPECT_FALSE(
      slotStoredBy(&Unit.call("__activemask"), Unit.context()).has_value());
}

} // namespace
} // namespace warpfix::test
