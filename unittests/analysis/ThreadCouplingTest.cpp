// What a fix that moves threads from one barrier, or exit, to another must
// not move them past: code that waits for, or tells apart, other threads,
// here or in what it calls, and calls that cannot be followed.
#include "checks/analysis/ThreadCoupling.h"
#include "unittests/analysis/ParsedUnit.h"
#include "gtest/gtest.h"

namespace warpfix::test {
namespace {

/// What couples threads in the body of kernel k of Code, as Kind says.
std::optional<ThreadCoupling>
couplingIn(const std::string &Code,
           CouplingKind Kind = CouplingKind::AnyThreads) {
  ParsedUnit Unit(Code);
  EXPECT_TRUE(Unit.parsed()) << Unit.errors();
  return threadCouplingIn(Unit.function("k").getBody(), Unit.context(), Kind);
}

TEST(ThreadCoupling, ArithmeticAndMemoryDoNot) {
  EXPECT_FALSE(couplingIn("__device__ int twice(int v) { return 2 * v; }"
                          "__global__ void k(int *out) {"
                          "  out[threadIdx.x] = twice(out[threadIdx.x]) +"
                          "      min(threadIdx.x, 3u); }"));
}

TEST(ThreadCoupling, WarpPrimitiveInACalleeDoes) {
  std::optional<ThreadCoupling> Found =
      couplingIn("__device__ int sum(int v) {"
                 "  return v + __shfl_xor_sync(0xffffffff, v, 1); }"
                 "__global__ void k(int *out) { out[0] = sum(out[1]); }");
  ASSERT_TRUE(Found);
  EXPECT_EQ("'__shfl_xor_sync'", Found->What);
}

TEST(ThreadCoupling, WarpPrimitiveIsNotABlockBarrier) {
  EXPECT_FALSE(couplingIn("__global__ void k(int *out) {"
                          "  out[0] = __shfl_xor_sync(0xffffffff, out[1], 1);"
                          "  __syncwarp(); }",
                          CouplingKind::BlockBarriers));
}

TEST(ThreadCoupling, BlockBarrierInALambdaIs) {
  std::optional<ThreadCoupling> Found =
      couplingIn("__global__ void k(int *out) {"
                 "  auto wait = [] { __syncthreads(); };"
                 "  wait(); }",
                 CouplingKind::BlockBarriers);
  ASSERT_TRUE(Found);
  EXPECT_EQ("'__syncthreads'", Found->What);
}

TEST(ThreadCoupling, CallsThatCannotBeFollowedMayCouple) {
  std::optional<ThreadCoupling> Pointer =
      couplingIn("__global__ void k(int *out, void (*f)(int *)) { f(out); }",
                 CouplingKind::BlockBarriers);
  ASSERT_TRUE(Pointer);
  EXPECT_EQ("a call through a pointer", Pointer->What);
  std::optional<ThreadCoupling> Unseen =
      couplingIn("__device__ void elsewhere(int *);"
                 "__global__ void k(int *out) { elsewhere(out); }",
                 CouplingKind::BlockBarriers);
  ASSERT_TRUE(Unseen);
  EXPECT_EQ("a call of a function whose body is not in sight", Unseen->What);
}

} // namespace
} // namespace warpfix::test
