// Whether a condition visibly comes from the thread's own identity: what a
// report that the threads of a block part must show, where the
// lane-dependence analysis only could not prove them together.
#include "checks/analysis/ThreadIdentity.h"
#include "checks/analysis/Analyses.h"
#include "unittests/analysis/ParsedUnit.h"
#include "gtest/gtest.h"

namespace warpfix::test {
namespace {

/// Whether the condition of the first if of Code comes from the thread.
bool firstConditionFromThread(llvm::StringRef Code) {
  ParsedUnit Unit(Code);
  EXPECT_TRUE(Unit.parsed()) << Unit.errors();
  if (!Unit.parsed())
    return false;
  ThreadIdentity Identity(Unit.context(), Unit.analyses().Calls);
  return Identity.of(Unit.nth<clang::IfStmt>().getCond());
}

TEST(ThreadIdentity, ThreadIndexThroughALocal) {
  EXPECT_TRUE(firstConditionFromThread(
      "__global__ void k(int *out, int n) {"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;"
      "  if (i < n) __syncthreads(); }"));
}

TEST(ThreadIdentity, AtomicResultDiffersPerThread) {
  EXPECT_TRUE(firstConditionFromThread(
      "__global__ void k(int *counter) {"
      "  if (atomicAdd(counter, 1) == 0) __syncthreads(); }"));
}

TEST(ThreadIdentity, ParameterGivenTheThreadIndex) {
  EXPECT_TRUE(firstConditionFromThread(
      "__device__ void f(int t) { if (t < 4) __syncthreads(); }"
      "__global__ void k() { f(threadIdx.x); }"));
}

TEST(ThreadIdentity, KernelParametersAndBlockIndexAreNot) {
  EXPECT_FALSE(
      firstConditionFromThread("__global__ void k(int n) {"
                               "  if (blockIdx.x < n) __syncthreads(); }"));
}

// `item` holds a thread's own draw under `threadIdx.x == 0`, and the shared
// one where it is tested.
TEST(ThreadIdentity, LastAssignmentInTheBlockDecides) {
  EXPECT_FALSE(firstConditionFromThread(
      "__global__ void k(int *queue, int n) {"
      "  __shared__ int drawn; int item = 0;"
      "  item = drawn;"
      "  if (item >= n) return;"
      "  if (threadIdx.x == 0) { item = atomicAdd(queue, 1); drawn = item; }"
      "  __syncthreads(); }"));
}

TEST(ThreadIdentity, AssignmentEarlierInTheLoopBodyDecides) {
  EXPECT_FALSE(firstConditionFromThread(
      "__global__ void k(int n) {"
      "  int i = 0;"
      "  while (true) { i = n; if (i < 4) __syncthreads(); i = threadIdx.x; }"
      "}"));
}

// The previous iteration's value reaches the top of the body.
TEST(ThreadIdentity, AssignmentLaterInTheLoopBodyReachesTheNextIteration) {
  EXPECT_TRUE(firstConditionFromThread(
      "__global__ void k(int n) {"
      "  int i = 0;"
      "  while (true) { if (i < n) __syncthreads(); i = threadIdx.x; } }"));
}

} // namespace
} // namespace warpfix::test
