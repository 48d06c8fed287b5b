// The statements that leave a region: what Membership subtracts the lanes
// of. An exit that is missed leaves lanes counted that are gone.
#include "unittests/analysis/ParsedUnit.h"
#include "clang/AST/Stmt.h"
#include "gtest/gtest.h"

namespace warpfix::test {
namespace {

/// The exits of the body of the Nth loop of the unit's code.
std::vector<const clang::Stmt *> exitsOfLoopBody(ParsedUnit &Unit,
                                                 bool CountContinue = true) {
  const auto &Loop = Unit.nth<clang::ForStmt>();
  return exitsOf(Unit.context(), Loop.getBody(), CountContinue);
}

TEST(Exits, ReturnInsideSwitchLeavesTheLoopBody) {
  ParsedUnit Unit("__global__ void k(int *p, int n) {"
                  "  for (int i = 0; i < n; ++i) {"
                  "    switch (p[i]) { case 1: return; default: break; }"
                  "    p[i] = 0; } }");
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  std::vector<const clang::Stmt *> Exits = exitsOfLoopBody(Unit);
  ASSERT_EQ(1u, Exits.size());
  EXPECT_TRUE(llvm::isa<clang::ReturnStmt>(Exits[0]));
}

TEST(Exits, BreakOfANestedSwitchDoesNotLeave) {
  ParsedUnit Unit(
      "__global__ void k(int *p, int n) {"
      "  for (int i = 0; i < n; ++i) {"
      "    switch (p[i]) { case 1: break; default: p[i] = 2; } } }");
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  EXPECT_TRUE(exitsOfLoopBody(Unit).empty());
}

TEST(Exits, ContinueInsideSwitchLeavesTheIteration) {
  ParsedUnit Unit("__global__ void k(int *p, int n) {"
                  "  for (int i = 0; i < n; ++i) {"
                  "    switch (p[i]) { case 1: continue; default: break; }"
                  "    p[i] = 0; } }");
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  std::vector<const clang::Stmt *> Exits = exitsOfLoopBody(Unit);
  ASSERT_EQ(1u, Exits.size());
  EXPECT_TRUE(llvm::isa<clang::ContinueStmt>(Exits[0]));
  EXPECT_TRUE(exitsOfLoopBody(Unit, /*CountContinue=*/false).empty());
}

TEST(Exits, BreakOfAnInnerLoopDoesNotLeave) {
  ParsedUnit Unit("__global__ void k(int *p, int n) {"
                  "  for (int i = 0; i < n; ++i) {"
                  "    while (p[i] > 0) { if (p[i] == 3) break; --p[i]; } } }");
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  EXPECT_TRUE(exitsOfLoopBody(Unit).empty());
}

TEST(Exits, GotoOutOfTheBodyLeaves) {
  ParsedUnit Unit("__global__ void k(int *p, int n) {"
                  "  for (int i = 0; i < n; ++i) {"
                  "    if (p[i] < 0) goto out;"
                  "    p[i] = 0; }"
                  "out:"
                  "  p[0] = 1; }");
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  std::vector<const clang::Stmt *> Exits = exitsOfLoopBody(Unit);
  ASSERT_EQ(1u, Exits.size());
  EXPECT_TRUE(llvm::isa<clang::GotoStmt>(Exits[0]));
}

TEST(Exits, PtxExitInsideTheBodyLeaves) {
  ParsedUnit Unit("__global__ void k(int *p, int n) {"
                  "  for (int i = 0; i < n; ++i) {"
                  "    if (p[i] < 0) asm volatile(\"exit;\");"
                  "    p[i] = 0; } }");
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  EXPECT_EQ(1u, exitsOfLoopBody(Unit).size());
}

TEST(Exits, CallOfAnExitingFunctionIsSeenThroughItsBody) {
  ParsedUnit Unit("static __device__ void stop() { asm volatile(\"exit;\"); }"
                  "static __device__ void checked(int v) { if (v) stop(); }"
                  "static __device__ void fine(int *p) { p[0] = 1; }"
                  "__global__ void k(int *p) { checked(p[0]); fine(p); }");
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  ExitingFunctions Exiting(Unit.context());
  EXPECT_TRUE(Exiting.mayExit(Unit.call("checked")));
  EXPECT_FALSE(Exiting.mayExit(Unit.call("fine")));
}

TEST(Exits, GotoIsFoundInABody) {
  ParsedUnit Unit("__global__ void k(int *p) {"
                  "  if (p[0]) goto done; p[1] = 2;"
                  "done:"
                  "  p[2] = 3; }"
                  "__global__ void h(int *p) { p[0] = 1; }");
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  EXPECT_TRUE(bodyContainsGoto(Unit.context(), Unit.function("k")));
  EXPECT_FALSE(bodyContainsGoto(Unit.context(), Unit.function("h")));
}

} // namespace
} // namespace warpfix::test
