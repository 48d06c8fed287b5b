// The warp-aggregated atomic: one __activemask() whose every use is right
// for whichever lanes are converged when it is taken. Accepting a use that
// is not (a shuffle from a lane outside m, m changed later, a shuffle that
// other lanes reach) keeps an __activemask() that reads garbage.
#include "checks/analysis/AggregatedAtomic.h"
#include "unittests/analysis/ParsedUnit.h"
#include "gtest/gtest.h"

namespace warpfix::test {
namespace {

bool isIdiom(llvm::StringRef Body) {
  ParsedUnit Unit(("__global__ void k(int *ctr, int *out) {"
                   "  int lane = threadIdx.x % 32; int base = 0;" +
                   Body + " out[threadIdx.x] = base; }")
                      .str());
  EXPECT_TRUE(Unit.parsed()) << Unit.errors();
  if (!Unit.parsed())
    return false;
  return isAggregationIdiom(&Unit.call("__activemask"), Unit.context(),
                            Unit.analyses().Members);
}

TEST(AggregatedAtomic, TheIdiomIsRecognised) {
  EXPECT_TRUE(isIdiom("unsigned m = __activemask();"
                      "int leader = __ffs(m) - 1;"
                      "if (lane == leader) base = atomicAdd(ctr, __popc(m));"
                      "base = __shfl_sync(m, base, leader);"));
}

TEST(AggregatedAtomic, ShuffleFromALaneOutsideTheMaskIsNot) {
  EXPECT_FALSE(isIdiom("unsigned m = __activemask();"
                       "int leader = __ffs(m) - 1;"
                       "if (lane == leader) base = atomicAdd(ctr, __popc(m));"
                       "base = __shfl_sync(m, base, 0);"));
}

TEST(AggregatedAtomic, MaskAssignedAgainIsNot) {
  EXPECT_FALSE(isIdiom("unsigned m = __activemask();"
                       "int leader = __ffs(m) - 1;"
                       "if (lane == leader) base = atomicAdd(ctr, __popc(m));"
                       "m |= 1;"
                       "base = __shfl_sync(m, base, leader);"));
}

TEST(AggregatedAtomic, ShuffleThatOnlySomeLanesReachIsNot) {
  EXPECT_FALSE(isIdiom("unsigned m = __activemask();"
                       "int leader = __ffs(m) - 1;"
                       "if (lane == leader) base = atomicAdd(ctr, __popc(m));"
                       "if (lane < 16) base = __shfl_sync(m, base, leader);"));
}

TEST(AggregatedAtomic, MaskWhoseAddressEscapesIsNot) {
  EXPECT_FALSE(isIdiom("unsigned m = __activemask();"
                       "unsigned *pm = &m; *pm = 3;"
                       "int leader = __ffs(m) - 1;"
                       "base = __shfl_sync(m, base, leader);"));
}

} // namespace
} // namespace warpfix::test
