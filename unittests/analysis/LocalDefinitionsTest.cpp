// The stores to a function's locals, and the locals whose uses the analysis
// does not model (an address taken, a reference bound, a lambda's capture).
// A local that escapes without being listed keeps the value of its last
// visible store, which another lane's store may have replaced.
#include "checks/analysis/LocalDefinitions.h"
#include "unittests/analysis/ParsedUnit.h"
#include "gtest/gtest.h"

namespace warpfix::test {
namespace {

LocalDefinitions definitionsOf(ParsedUnit &Unit, llvm::StringRef Function) {
  return collectLocalDefinitions(Unit.context(),
                                 Unit.function(Function).getBody());
}

size_t storesTo(const LocalDefinitions &Locals, const clang::VarDecl &Var) {
  return llvm::count_if(Locals.Definitions,
                        [&](const Definition &D) { return D.Var == &Var; });
}

TEST(LocalDefinitions, EveryStoreIsADefinition) {
  ParsedUnit Unit("__global__ void k(int *p, int n) {"
                  "  int v = 0;"
                  "  v = n;"
                  "  v += 2;"
                  "  ++v;"
                  "  p[0] = v; }");
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  LocalDefinitions Locals = definitionsOf(Unit, "k");
  EXPECT_EQ(4u, storesTo(Locals, Unit.variable("v")));
  EXPECT_FALSE(Locals.Escaped.contains(&Unit.variable("v")));
}

TEST(LocalDefinitions, AddressTakenEscapes) {
  ParsedUnit Unit("__device__ void fill(int *);"
                  "__global__ void k(int *p) {"
                  "  int v = 0; fill(&v); p[0] = v; }");
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  EXPECT_TRUE(definitionsOf(Unit, "k").Escaped.contains(&Unit.variable("v")));
}

TEST(LocalDefinitions, ReferenceBoundEscapes) {
  ParsedUnit Unit("__global__ void k(int *p) {"
                  "  int v = 0; int &alias = v; alias = p[threadIdx.x];"
                  "  p[0] = v; }");
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  EXPECT_TRUE(definitionsOf(Unit, "k").Escaped.contains(&Unit.variable("v")));
}

TEST(LocalDefinitions, CaptureByReferenceEscapes) {
  ParsedUnit Unit("__global__ void k(int *p) {"
                  "  int v = 0;"
                  "  auto set = [&] { v = p[threadIdx.x]; };"
                  "  set(); p[0] = v; }",
                  /*AssumeWholeWarps=*/true);
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  EXPECT_TRUE(definitionsOf(Unit, "k").Escaped.contains(&Unit.variable("v")));
}

TEST(LocalDefinitions, CaptureByValueDoesNotEscape) {
  ParsedUnit Unit("__global__ void k(int *p) {"
                  "  int v = 3;"
                  "  auto get = [v] { return v; };"
                  "  p[0] = get(); }");
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  EXPECT_FALSE(definitionsOf(Unit, "k").Escaped.contains(&Unit.variable("v")));
}

TEST(LocalDefinitions, StoreThroughAPointerIsNoLocal) {
  ParsedUnit Unit("__global__ void k(int *p) {"
                  "  int a[2] = {0, 0};"
                  "  a[1] = 5; p[0] = 6; }");
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  const auto &ToArray = Unit.nth<clang::BinaryOperator>(0);
  const auto &ToPointer = Unit.nth<clang::BinaryOperator>(1);
  EXPECT_EQ(&Unit.variable("a"), assignedLocal(ToArray.getLHS()));
  EXPECT_EQ(nullptr, assignedLocal(ToPointer.getLHS()));
}

} // namespace
} // namespace warpfix::test
