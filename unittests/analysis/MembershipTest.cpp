// Which lanes of a warp reach a statement: all of them, those of a set of
// lane conditions (what a ballot fix computes), or unknown. "All lanes" where
// only some arrive is the unsound answer that a full-mask fix turns into a
// hang; every exit that the analysis misses is one.
#include "unittests/analysis/ParsedUnit.h"
#include "gtest/gtest.h"

namespace warpfix::test {
namespace {

Membership membershipOfCall(llvm::StringRef Code, llvm::StringRef Callee,
                            bool AssumeWholeWarps = true,
                            MembershipScope Scope = MembershipScope::Warp) {
  ParsedUnit Unit(Code, AssumeWholeWarps);
  EXPECT_TRUE(Unit.parsed()) << Unit.errors();
  if (!Unit.parsed())
    return Membership::unknown("not parsed", {});
  Analyses &Shared = Unit.analyses();
  return (Scope == MembershipScope::Block ? Shared.BlockMembers
                                          : Shared.Members)
      .at(&Unit.call(Callee));
}

/// The threads of a block that reach the call of Callee.
Membership threadsReachingCall(llvm::StringRef Code, llvm::StringRef Callee) {
  return membershipOfCall(Code, Callee, /*AssumeWholeWarps=*/true,
                          MembershipScope::Block);
}

TEST(Membership, StraightLineKernelReachesWithAllLanes) {
  Membership M = membershipOfCall(
      "__global__ void k(int *out, int v) {"
      "  out[threadIdx.x] = __shfl_down_sync(0xffffffff, v, 1); }",
      "__shfl_down_sync");
  EXPECT_EQ(Membership::AllLanes, M.Result);
}

TEST(Membership, LaneConditionGivesItsBallot) {
  Membership M =
      membershipOfCall("__global__ void k(int *out, int v) {"
                       "  if (threadIdx.x % 32 < 12)"
                       "    out[0] = __shfl_down_sync(0xffffffff, v, 1); }",
                       "__shfl_down_sync");
  ASSERT_EQ(Membership::Conditional, M.Result) << M.Reason;
  EXPECT_TRUE(M.LaneDependentCondition);
  EXPECT_TRUE(M.isPartial());
  ASSERT_EQ(1u, M.Conditions.size());
  ASSERT_EQ(1u, M.Conditions[0].Conjuncts.size());
  EXPECT_FALSE(M.Conditions[0].Conjuncts[0].Negated);
}

TEST(Membership, ElseArmIsTheNegatedCondition) {
  Membership M =
      membershipOfCall("__global__ void k(int *out, int v) {"
                       "  if (threadIdx.x % 32 < 12) out[1] = v;"
                       "  else out[0] = __shfl_down_sync(0xffffffff, v, 1); }",
                       "__shfl_down_sync");
  ASSERT_EQ(Membership::Conditional, M.Result) << M.Reason;
  ASSERT_EQ(1u, M.Conditions.size());
  ASSERT_EQ(1u, M.Conditions[0].Conjuncts.size());
  EXPECT_TRUE(M.Conditions[0].Conjuncts[0].Negated);
}

TEST(Membership, BlockUniformConditionKeepsEveryLane) {
  Membership M =
      membershipOfCall("__global__ void k(int *out, int v, int n) {"
                       "  if (blockIdx.x < n)"
                       "    out[0] = __shfl_down_sync(0xffffffff, v, 1); }",
                       "__shfl_down_sync");
  EXPECT_FALSE(M.isPartial());
  EXPECT_NE(Membership::Unknown, M.Result) << M.Reason;
}

TEST(Membership, WholeWarpConditionKeepsEveryLaneOnlyUnderTheAssumption) {
  const char *Code = "__global__ void k(int *out, int v) {"
                     "  if (threadIdx.x < 64)"
                     "    out[0] = __shfl_down_sync(0xffffffff, v, 1); }";
  // In a block of one dimension, threadIdx.x is the thread's linear index,
  // and a bound that is a multiple of 32 falls between two warps.
  Membership Assumed = membershipOfCall(Code, "__shfl_down_sync");
  EXPECT_FALSE(Assumed.isPartial()) << Assumed.Reason;
  EXPECT_NE(0u, Assumed.Assumed.Bits & LinearThreadIndex);

  Membership NotAssumed =
      membershipOfCall(Code, "__shfl_down_sync", /*AssumeWholeWarps=*/false);
  EXPECT_NE(Membership::AllLanes, NotAssumed.Result);
}

// Rows of 48 threads: the second warp holds x 32 to 47 of the first row and
// x 0 to 15 of the second, so `threadIdx.x < 32` splits it.
TEST(Membership, WholeWarpConditionSplitsTheWarpsOfALaunchWithRows) {
  Membership M =
      membershipOfCall("static __global__ void k(int *out, int v) {"
                       "  if (threadIdx.x < 32)"
                       "    out[0] = __shfl_down_sync(0xffffffff, v, 1); }"
                       "void host(int *out) { k<<<1, dim3(48, 2)>>>(out, 1); }",
                       "__shfl_down_sync");
  EXPECT_NE(Membership::AllLanes, M.Result);
  EXPECT_TRUE(M.isPartial());
}

TEST(Membership, EarlyReturnOfSomeLanesIsNotAllLanes) {
  Membership M = membershipOfCall(
      "__global__ void k(int *out, const int *in, int v) {"
      "  if (in[threadIdx.x] < 0) return;"
      "  out[threadIdx.x] = __shfl_down_sync(0xffffffff, v, 1); }",
      "__shfl_down_sync");
  EXPECT_NE(Membership::AllLanes, M.Result);
  EXPECT_TRUE(M.isPartial());
}

TEST(Membership, ReturnInsideSwitchIsAnExit) {
  Membership M = membershipOfCall(
      "__global__ void k(int *out, const int *in) {"
      "  switch (in[threadIdx.x]) { case 7: return; default: break; }"
      "  out[threadIdx.x] = __any_sync(0xffffffff, in[threadIdx.x] > 3); }",
      "__any_sync");
  EXPECT_NE(Membership::AllLanes, M.Result);
}

TEST(Membership, ContinueInsideSwitchLeavesTheIteration) {
  Membership M =
      membershipOfCall("__global__ void k(int *out, const int *in, int n) {"
                       "  int b = 0;"
                       "  for (int i = 0; i < n; ++i) {"
                       "    switch (in[i * 32 + threadIdx.x % 32] & 3) {"
                       "    case 0: continue;"
                       "    default: break;"
                       "    }"
                       "    b += __ballot_sync(0xffffffff, in[i] > 0);"
                       "  }"
                       "  out[threadIdx.x] = b; }",
                       "__ballot_sync");
  EXPECT_NE(Membership::AllLanes, M.Result);
}

TEST(Membership, BreakThatLeavesOnlyTheSwitchKeepsEveryLane) {
  Membership M = membershipOfCall(
      "__global__ void k(int *out, const int *in, int n) {"
      "  int b = 0;"
      "  for (int i = 0; i < n; ++i) {"
      "    switch (in[threadIdx.x] & 1) { case 0: break; default: b++; }"
      "    b += __ballot_sync(0xffffffff, in[i] > 0);"
      "  }"
      "  out[threadIdx.x] = b; }",
      "__ballot_sync");
  EXPECT_EQ(Membership::AllLanes, M.Result) << M.Reason;
}

TEST(Membership, GotoOverTheCallIsNotAllLanes) {
  Membership M = membershipOfCall("__global__ void k(int *out, const int *in) {"
                                  "  int v = in[threadIdx.x];"
                                  "  if (v < 0) goto done;"
                                  "  v = __shfl_down_sync(0xffffffff, v, 1);"
                                  "done:"
                                  "  out[threadIdx.x] = v; }",
                                  "__shfl_down_sync");
  EXPECT_NE(Membership::AllLanes, M.Result);
}

TEST(Membership, LaneDependentTripCountIsDivergent) {
  Membership M =
      membershipOfCall("__global__ void k(int *out, const int *len) {"
                       "  int s = 0;"
                       "  for (int i = 0; i < len[threadIdx.x]; ++i)"
                       "    s += __shfl_xor_sync(0xffffffff, s, 1);"
                       "  out[threadIdx.x] = s; }",
                       "__shfl_xor_sync");
  EXPECT_NE(Membership::AllLanes, M.Result);
  EXPECT_TRUE(M.isPartial());
}

TEST(Membership, CallInHelperFollowsItsCallers) {
  Membership M =
      membershipOfCall("static __device__ int sum(int v) {"
                       "  return v + __shfl_xor_sync(0xffffffff, v, 1); }"
                       "__global__ void k(int *out, int v) {"
                       "  if (threadIdx.x % 32 < 8) out[0] = sum(v); }",
                       "__shfl_xor_sync");
  EXPECT_NE(Membership::AllLanes, M.Result);
  EXPECT_TRUE(M.isPartial());
}

TEST(Membership, ExitingCalleeIsAnExit) {
  Membership M = membershipOfCall(
      "static __device__ void bail() { asm volatile(\"exit;\"); }"
      "__global__ void k(int *out, const int *in, int v) {"
      "  if (in[threadIdx.x] < 0) bail();"
      "  out[threadIdx.x] = __shfl_down_sync(0xffffffff, v, 1); }",
      "__shfl_down_sync");
  EXPECT_NE(Membership::AllLanes, M.Result);
}

TEST(Membership, HelperWhoseAddressEscapesHasUnseenCallers) {
  Membership M = membershipOfCall(
      "__device__ int sum(int v) {"
      "  return v + __shfl_xor_sync(0xffffffff, v, 1); }"
      "__device__ int (*pick)(int) = sum;"
      "__global__ void k(int *out, int v) { out[0] = sum(v); }",
      "__shfl_xor_sync");
  EXPECT_NE(Membership::AllLanes, M.Result);
}

// A condition that keeps every lane of each warp together still parts the
// threads of a block: warps 0 and 1 take different ways.
TEST(Membership, WholeWarpConditionPartsTheBlock) {
  const char *Code = "__global__ void k(int *out) {"
                     "  if (threadIdx.x / 32 == 0) __syncthreads(); }";
  EXPECT_FALSE(membershipOfCall(Code, "__syncthreads").isPartial());
  Membership Block = threadsReachingCall(Code, "__syncthreads");
  ASSERT_EQ(Membership::Conditional, Block.Result) << Block.Reason;
  EXPECT_TRUE(Block.isPartial());
}

TEST(Membership, BlockUniformConditionKeepsEveryThreadOfTheBlock) {
  Membership M = threadsReachingCall(
      "__global__ void k(int *out, int n) {"
      "  for (int s = blockDim.x / 2; s > 0; s >>= 1) {"
      "    if (threadIdx.x < s) out[threadIdx.x] += out[threadIdx.x + s];"
      "    if (blockIdx.x < n) __syncthreads(); } }",
      "__syncthreads");
  EXPECT_EQ(Membership::AllLanes, M.Result) << M.Reason;
}

TEST(Membership, BarrierResultIsTheSameForTheWholeBlock) {
  Membership M =
      threadsReachingCall("__global__ void k(int *out) {"
                          "  while (__syncthreads_or(out[threadIdx.x] > 0)) {"
                          "    out[threadIdx.x] -= 1; __syncthreads(); } }",
                          "__syncthreads");
  EXPECT_EQ(Membership::AllLanes, M.Result) << M.Reason;
}

TEST(Membership, ThreadStridedLoopPartsTheBlock) {
  Membership M = threadsReachingCall(
      "__global__ void k(int *out, int n) {"
      "  for (int i = threadIdx.x; i < n; i += blockDim.x) {"
      "    out[i] = 0; __syncthreads(); } }",
      "__syncthreads");
  EXPECT_TRUE(M.isPartial()) << M.Reason;
  EXPECT_NE(std::string::npos, M.Reason.find("thread-dependent")) << M.Reason;
}

} // namespace
} // namespace warpfix::test
