// When a ballot of a `?:`'s condition, taken before its statement, names the
// lanes that take each arm. It does not where the statement may change what
// the condition reads before the arm runs, or where the condition reads
// memory that other lanes write.
#include "checks/analysis/ArmBallot.h"
#include "unittests/analysis/ParsedUnit.h"
#include "gtest/gtest.h"

namespace warpfix::test {
namespace {

std::optional<std::string> refusalOf(llvm::StringRef Body) {
  ParsedUnit Unit(("__global__ void k(int *p, int v) {" + Body + " }").str());
  EXPECT_TRUE(Unit.parsed()) << Unit.errors();
  if (!Unit.parsed())
    return "not parsed";
  const clang::Stmt *Statement = nullptr;
  return armBallotRefusal(&Unit.nth<clang::ConditionalOperator>(),
                          Unit.context(), Statement);
}

TEST(ArmBallot, ConditionOnTheThreadsOwnValues) {
  std::optional<std::string> Why =
      refusalOf("int lane = threadIdx.x % 32;"
                "int r = lane < 8 ? __shfl_xor_sync(0xffffffff, v, 1) : v;"
                "p[threadIdx.x] = r;");
  EXPECT_FALSE(Why.has_value()) << *Why;
}

TEST(ArmBallot, ConditionThatReadsMemoryIsRefused) {
  EXPECT_TRUE(refusalOf("int r = p[threadIdx.x] > 0"
                        "  ? __shfl_xor_sync(0xffffffff, v, 1) : v;"
                        "p[threadIdx.x] = r;")
                  .has_value());
}

TEST(ArmBallot, StatementThatChangesTheConditionFirstIsRefused) {
  EXPECT_TRUE(refusalOf("int lane = threadIdx.x % 32;"
                        "p[0] = (lane = v) < 8"
                        "  ? __shfl_xor_sync(0xffffffff, v, 1) : v;")
                  .has_value());
}

} // namespace
} // namespace warpfix::test
