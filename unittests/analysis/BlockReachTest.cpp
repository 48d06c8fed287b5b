// What a barrier inserted for the whole block must not rest on, beyond the
// membership analysis: each case reaches its statement by every thread as
// far as the membership walk sees, and one fact it does not model makes the
// barrier unsafe.
#include "checks/analysis/BlockReach.h"
#include "unittests/analysis/ParsedUnit.h"
#include "gtest/gtest.h"

namespace warpfix::test {
namespace {

/// The reason for the statement `out[0] = 1;` in kernel k of Code, if any.
std::optional<UnmodelledReach> reasonIn(const std::string &Code) {
  ParsedUnit Unit(Code);
  EXPECT_TRUE(Unit.parsed()) << Unit.errors();
  const clang::FunctionDecl &Kernel = Unit.function("k");
  const clang::Stmt *At = nullptr;
  for (const clang::Stmt *S :
       llvm::cast<clang::CompoundStmt>(Kernel.getBody())->body())
    if (const auto *Assign = llvm::dyn_cast<clang::BinaryOperator>(S))
      if (Assign->isAssignmentOp())
        At = S;
  EXPECT_NE(nullptr, At);
  return unmodelledReach(Unit.context(), Kernel, At);
}

TEST(BlockReach, CountedLoopOfRegistersIsModelled) {
  EXPECT_FALSE(reasonIn("__global__ void k(int *out, int n) {"
                        "  int acc = 0;"
                        "  for (int i = blockIdx.x; i < n; i += gridDim.x)"
                        "    acc += i;"
                        "  out[0] = 1; }"));
}

TEST(BlockReach, ExitInADestructorIsNot) {
  std::optional<UnmodelledReach> Reason =
      reasonIn("struct S { __device__ ~S() { asm volatile(\"exit;\"); } };"
               "__global__ void k(int *out) {"
               "  { S s; }"
               "  out[0] = 1; }");
  ASSERT_TRUE(Reason);
  EXPECT_NE(std::string::npos, Reason->Why.find("inline PTX"));
}

TEST(BlockReach, SpinWaitIsNot) {
  std::optional<UnmodelledReach> Reason =
      reasonIn("__global__ void k(int *out, volatile int *flag) {"
               "  if (threadIdx.x >= 32) while (*flag == 0) {}"
               "  out[0] = 1; }");
  ASSERT_TRUE(Reason);
  EXPECT_NE(std::string::npos, Reason->Why.find("wait on memory"));
}

TEST(BlockReach, BranchOnALocalLoadedFromMemoryIsNot) {
  std::optional<UnmodelledReach> Reason =
      reasonIn("__global__ void k(int *out, const int *flags) {"
               "  int f = flags[blockIdx.x];"
               "  if (f) return;"
               "  out[0] = 1; }");
  ASSERT_TRUE(Reason);
  EXPECT_NE(std::string::npos, Reason->Why.find("reads memory"));
}

} // namespace
} // namespace warpfix::test
