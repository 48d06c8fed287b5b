// The parent index that the analyses climb with. A parent that is wrong, or
// missing for a node of an instantiation, is a condition or an exit that the
// climb never sees.
#include "checks/analysis/Parents.h"
#include "unittests/analysis/ParsedUnit.h"
#include "gtest/gtest.h"

namespace warpfix::test {
namespace {

TEST(Parents, CallClimbsToItsIfAndFunction) {
  ParsedUnit Unit("__global__ void k(int *p, int v) {"
                  "  if (v > 0) { p[0] = __popc(v); } }");
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  const clang::CallExpr &Call = Unit.call("__popc");
  const auto &If = Unit.nth<clang::IfStmt>();
  EXPECT_TRUE(isWithin(Unit.context(), &Call, If.getThen()));
  EXPECT_FALSE(isWithin(Unit.context(), &Call, If.getCond()));
  EXPECT_EQ(&Unit.function("k"), enclosingFunction(Unit.context(), &Call));
}

TEST(Parents, NodeOfAnInstantiationClimbsToTheInstantiation) {
  ParsedUnit Unit("template <int N> __device__ int f(int v) {"
                  "  return N > 1 ? __popc(v) : v; }"
                  "__global__ void k(int *p) { p[0] = f<2>(p[1]); }");
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  // The pattern's call comes first, then the instantiation's.
  const clang::CallExpr &InInstantiation = Unit.call("__popc", 1);
  const clang::FunctionDecl *F =
      enclosingFunction(Unit.context(), &InInstantiation);
  ASSERT_NE(nullptr, F);
  EXPECT_TRUE(F->isTemplateInstantiation());
}

TEST(Parents, StatementOfALambdaBelongsToTheLambda) {
  ParsedUnit Unit("__global__ void k(int *p, int v) {"
                  "  auto f = [=] { return __popc(v); }; p[0] = f(); }");
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  const clang::FunctionDecl *F =
      enclosingFunction(Unit.context(), &Unit.call("__popc"));
  ASSERT_NE(nullptr, F);
  EXPECT_EQ("operator()", F->getNameAsString());
}

TEST(Parents, ParentStmtOfTheBodyIsNone) {
  ParsedUnit Unit("__global__ void k(int *p) { p[0] = 1; }");
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  EXPECT_EQ(nullptr, parentStmt(Unit.context(), Unit.function("k").getBody()));
}

} // namespace
} // namespace warpfix::test
