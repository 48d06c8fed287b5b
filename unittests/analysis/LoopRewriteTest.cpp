// When a loop with a lane-dependent trip count may be rewritten so that its
// lanes stay together until none has an iteration left (the loop of a legacy
// call that MaskFix gives a mask). A rewrite that moves an exit, skips an
// increment, or evaluates a condition that another lane's store changed is a
// loop that runs a different number of times.
#include "checks/analysis/LoopRewrite.h"
#include "unittests/analysis/ParsedUnit.h"
#include "gtest/gtest.h"

namespace warpfix::test {
namespace {

std::optional<std::string> refusalOf(llvm::StringRef Body) {
  ParsedUnit Unit(
      ("__global__ void k(int *out, const int *len, int v) {" + Body + " }")
          .str());
  EXPECT_TRUE(Unit.parsed()) << Unit.errors();
  if (!Unit.parsed())
    return "not parsed";
  ExitingFunctions Exiting(Unit.context());
  return loopRewriteRefusal(&Unit.nth<clang::ForStmt>(), Unit.context(),
                            Exiting);
}

/// A refusal, for the reason that names Word.
void expectRefusedFor(llvm::StringRef Body, llvm::StringRef Word) {
  std::optional<std::string> Why = refusalOf(Body);
  ASSERT_TRUE(Why.has_value());
  EXPECT_NE(std::string::npos, Why->find(Word.str())) << *Why;
}

TEST(LoopRewrite, LoopOverTheThreadsOwnCountMayBeRewritten) {
  std::optional<std::string> Why = refusalOf("int n = threadIdx.x % 32;"
                                             "for (int i = 0; i < n; ++i) {"
                                             "  v += __shfl_xor(v, 1); }"
                                             "out[threadIdx.x] = v;");
  EXPECT_FALSE(Why.has_value()) << *Why;
}

TEST(LoopRewrite, BreakInTheBodyIsRefused) {
  expectRefusedFor("int n = threadIdx.x % 32;"
                   "for (int i = 0; i < n; ++i) {"
                   "  if (v > 100) break;"
                   "  v += __shfl_xor(v, 1); }"
                   "out[threadIdx.x] = v;",
                   "break");
}

TEST(LoopRewrite, ContinueThatWouldSkipTheIncrementIsRefused) {
  expectRefusedFor("int n = threadIdx.x % 32;"
                   "for (int i = 0; i < n; ++i) {"
                   "  if (v & 1) { v++; continue; }"
                   "  v += __shfl_xor(v, 1); }"
                   "out[threadIdx.x] = v;",
                   "increment");
}

TEST(LoopRewrite, UnbracedBodyIsRefused) {
  expectRefusedFor("int n = threadIdx.x % 32;"
                   "for (int i = 0; i < n; ++i)"
                   "  v += __shfl_xor(v, 1);"
                   "out[threadIdx.x] = v;",
                   "braces");
}

// Device code writes out[], so a lane whose condition failed may find it
// true when the rewrite evaluates it again.
TEST(LoopRewrite, ConditionOnMemoryThatDeviceCodeWritesIsRefused) {
  expectRefusedFor("for (int i = 0; i < out[threadIdx.x]; ++i) {"
                   "  v += __shfl_xor(v, 1);"
                   "  out[threadIdx.x ^ 1] = v; }",
                   "memory");
}

} // namespace
} // namespace warpfix::test
