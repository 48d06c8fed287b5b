// Which calls are the toolkit's warp primitives, which argument is their
// member mask, and where a mask comes from. A mask read from the wrong
// argument, or a user's function taken for a primitive, puts a fix in the
// wrong place.
#include "checks/analysis/SyncPrimitives.h"
#include "unittests/analysis/ParsedUnit.h"
#include "gtest/gtest.h"

namespace warpfix::test {
namespace {

TEST(SyncPrimitives, ToolkitPrimitiveIsRecognisedAndUserLookalikeIsNot) {
  ParsedUnit Unit(
      "namespace mine { __device__ int __shfl_sync(unsigned m, int v,"
      "                                             int l) { return v; } }"
      "__global__ void k(int *p, int v) {"
      "  p[0] = __shfl_sync(0xffffffff, v, 0);"
      "  p[1] = mine::__shfl_sync(0xffffffff, v, 0); }");
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  const clang::SourceManager &SM = Unit.context().getSourceManager();
  EXPECT_TRUE(isSyncPrimitiveCall(Unit.call("__shfl_sync", 0), SM));
  EXPECT_FALSE(isSyncPrimitiveCall(Unit.call("__shfl_sync", 1), SM));
}

TEST(SyncPrimitives, MemberMaskIsTheFirstArgument) {
  ParsedUnit Unit("__global__ void k(int *p, int v, unsigned m) {"
                  "  p[0] = __shfl_xor_sync(m, v, 1);"
                  "  __syncwarp(m); }");
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  for (llvm::StringRef Primitive : {"__shfl_xor_sync", "__syncwarp"}) {
    const clang::CallExpr &Call = Unit.call(Primitive);
    const clang::Expr *Mask = memberMaskArgument(Call, Unit.context());
    ASSERT_NE(nullptr, Mask) << Primitive.str();
    const auto *Ref =
        llvm::dyn_cast<clang::DeclRefExpr>(Mask->IgnoreParenImpCasts());
    ASSERT_NE(nullptr, Ref) << Primitive.str();
    EXPECT_EQ("m", Ref->getDecl()->getName()) << Primitive.str();
  }
}

TEST(SyncPrimitives, OtherCallsHaveNoMemberMask) {
  ParsedUnit Unit("__global__ void k(int *p, int v) {"
                  "  p[0] = __popc(v); __syncthreads(); }");
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  EXPECT_EQ(nullptr, memberMaskArgument(Unit.call("__popc"), Unit.context()));
  EXPECT_EQ(nullptr,
            memberMaskArgument(Unit.call("__syncthreads"), Unit.context()));
}

TEST(SyncPrimitives, FullMaskConstantsInTheirSpellings) {
  ParsedUnit Unit("#define FULL 0xffffffffu\n"
                  "constexpr unsigned every_lane = ~0u;"
                  "__global__ void k(int *p, int v) {"
                  "  p[0] = __shfl_sync(0xffffffff, v, 0);"
                  "  p[1] = __shfl_sync(FULL, v, 0);"
                  "  p[2] = __shfl_sync(every_lane, v, 0);"
                  "  p[3] = __shfl_sync(-1, v, 0);"
                  "  p[4] = __shfl_sync(0x7fffffff, v, 0);"
                  "  p[5] = __shfl_sync(0xffff, v, 0); }");
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  auto IsFull = [&](unsigned Nth) {
    const clang::CallExpr &Call = Unit.call("__shfl_sync", Nth);
    return isFullMaskConstant(memberMaskArgument(Call, Unit.context()),
                              Unit.context());
  };
  EXPECT_TRUE(IsFull(0));
  EXPECT_TRUE(IsFull(1));
  EXPECT_TRUE(IsFull(2));
  EXPECT_TRUE(IsFull(3));
  EXPECT_FALSE(IsFull(4));
  EXPECT_FALSE(IsFull(5));
}

TEST(SyncPrimitives, ActiveMaskIsFoundThroughAWrapper) {
  ParsedUnit Unit(
      "static __device__ unsigned active() { return __activemask(); }"
      "__global__ void k(int *p, int v) {"
      "  unsigned direct = __activemask();"
      "  unsigned wrapped = active();"
      "  unsigned constant = 0xffffffff; }");
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  EXPECT_TRUE(isActiveMaskCall(&Unit.initializer("direct"), Unit.context()));
  EXPECT_TRUE(isActiveMaskCall(&Unit.initializer("wrapped"), Unit.context()));
  EXPECT_FALSE(isActiveMaskCall(&Unit.initializer("constant"), Unit.context()));
}

TEST(SyncPrimitives, MaskOriginIsFollowedThroughAVariable) {
  ParsedUnit Unit("__global__ void k(int *p, int v) {"
                  "  unsigned m = __activemask();"
                  "  p[0] = __shfl_sync(m, v, 0); }");
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  const clang::Expr *Mask =
      memberMaskArgument(Unit.call("__shfl_sync"), Unit.context());
  std::vector<MaskOrigin> Origins = maskOrigins(Mask, Unit.context());
  ASSERT_EQ(1u, Origins.size());
  EXPECT_TRUE(Origins[0].ThroughVariable);
  EXPECT_TRUE(isActiveMaskCall(Origins[0].Origin, Unit.context()));
}

TEST(SyncPrimitives, PureToolkitCallsAreAnAllowList) {
  ParsedUnit Unit("__global__ void k(int *p, float f, int v) {"
                  "  p[0] = __popc(v) + (int)fmaxf(f, 1.0f);"
                  "  p[1] = atomicAdd(p, 1);"
                  "  p[2] = (int)clock(); }");
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  const clang::SourceManager &SM = Unit.context().getSourceManager();
  EXPECT_TRUE(isPureToolkitCall(Unit.call("__popc"), SM));
  EXPECT_TRUE(isPureToolkitCall(Unit.call("fmaxf"), SM));
  EXPECT_FALSE(isPureToolkitCall(Unit.call("atomicAdd"), SM));
  EXPECT_FALSE(isPureToolkitCall(Unit.call("clock"), SM));
}

} // namespace
} // namespace warpfix::test
