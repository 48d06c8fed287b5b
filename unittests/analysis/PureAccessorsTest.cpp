// Which member functions are pure accessors, whose call a condition may
// evaluate again in a ballot: one return of the object's fields and the
// parameters. A function called pure that stores, calls or dispatches
// virtually would run twice.
#include "checks/analysis/PureAccessors.h"
#include "unittests/analysis/ParsedUnit.h"
#include "gtest/gtest.h"

namespace warpfix::test {
namespace {

constexpr llvm::StringLiteral Accessors =
    "struct Item {"
    "  int n; int *counter;"
    "  __device__ int size() const { return n; }"
    "  __device__ int plus(int k) const { return n + k; }"
    "  __device__ int counted() { return ++*counter; }"
    "  __device__ int viaCall() const { return size(); }"
    "  __device__ virtual int dispatched() const { return n; }"
    "};";

bool isPure(llvm::StringRef Method) {
  ParsedUnit Unit((Accessors + "__global__ void k(Item *it, int *p) {"
                               "  p[0] = it->size() + it->plus(1) +"
                               "         it->counted() + it->viaCall() +"
                               "         it->dispatched(); }")
                      .str());
  EXPECT_TRUE(Unit.parsed()) << Unit.errors();
  if (!Unit.parsed())
    return false;
  return isPureAccessor(&Unit.function(Method));
}

TEST(PureAccessors, FieldReadIsPure) { EXPECT_TRUE(isPure("size")); }
TEST(PureAccessors, ExpressionOverFieldAndParameterIsPure) {
  EXPECT_TRUE(isPure("plus"));
}
TEST(PureAccessors, StoreIsNotPure) { EXPECT_FALSE(isPure("counted")); }
TEST(PureAccessors, CallIsNotPure) { EXPECT_FALSE(isPure("viaCall")); }
TEST(PureAccessors, VirtualIsNotPure) { EXPECT_FALSE(isPure("dispatched")); }

TEST(PureAccessors, ReferenceThatTheCallerStoresThroughIsNotOnlyRead) {
  ParsedUnit Unit("struct Box { int v;"
                  "  __device__ int &ref() { return v; } };"
                  "__global__ void k(Box *b, int *p) {"
                  "  p[0] = b->ref();"
                  "  b->ref() = 3; }");
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  EXPECT_TRUE(isReadOnlyAccessorCall(Unit.context(), &Unit.call("ref", 0)));
  EXPECT_FALSE(isReadOnlyAccessorCall(Unit.context(), &Unit.call("ref", 1)));
}

} // namespace
} // namespace warpfix::test
