// Wrapper macros of before CUDA 9 that take a member mask and drop it. Their
// callers wrote any mask, so a mask argument that the body ignores proves
// nothing; one that the body uses is the call's mask.
#include "checks/analysis/IgnoredMaskArgument.h"
#include "unittests/analysis/ParsedUnit.h"
#include "gtest/gtest.h"

namespace warpfix::test {
namespace {

// The legacy shuffle, declared here as the toolkit declared it before CUDA 9:
// the analysis reads only the macro's text around the call.
constexpr llvm::StringLiteral Wrappers =
    "__device__ int legacy_xor(int v, int lane, int width = 32);\n"
    "#define SHFL_XOR(v, m, mask) legacy_xor(v, m)\n"
    "#define SHFL_XOR_SYNC(v, m, mask) __shfl_xor_sync(mask, v, m)\n"
    "#define FULL 0xffffffff\n"
    "#define HALF 0x0000ffff\n";

/// The wrappers, then a kernel whose body is Body.
std::string withWrappers(llvm::StringRef Body) {
  return (Wrappers + "__global__ void k(int *p, int v) {\n" + Body + " }\n")
      .str();
}

/// The ignored mask parameter of the macro that writes Call, if any.
std::optional<IgnoredMaskParameter> ignoredAt(ParsedUnit &Unit,
                                              const clang::CallExpr &Call) {
  return ignoredMaskParameter(Unit.sources().getSpellingLoc(Call.getBeginLoc()),
                              Unit.sources());
}

/// What the invocation that expanded Call passes for Param.
std::optional<std::string> argumentOf(ParsedUnit &Unit,
                                      const clang::CallExpr &Call,
                                      const IgnoredMaskParameter &Param) {
  return maskArgumentText(Call.getBeginLoc(), Param, Unit.sources(),
                          Unit.context().getLangOpts());
}

TEST(IgnoredMaskArgument, MaskParameterThatTheBodyDropsIsFound) {
  ParsedUnit Unit(withWrappers("  p[0] = SHFL_XOR(v, 1, HALF);"));
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  const clang::CallExpr &Call = Unit.call("legacy_xor");
  std::optional<IgnoredMaskParameter> Param = ignoredAt(Unit, Call);
  ASSERT_TRUE(Param.has_value());
  EXPECT_EQ("SHFL_XOR", Param->Macro);
  EXPECT_EQ("mask", Param->Name);
  EXPECT_EQ(2u, Param->Index);
  EXPECT_EQ("HALF", argumentOf(Unit, Call, *Param));
}

TEST(IgnoredMaskArgument, MaskParameterThatTheBodyUsesIsNotIgnored) {
  ParsedUnit Unit(withWrappers("  p[0] = SHFL_XOR_SYNC(v, 1, FULL);"));
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  const clang::CallExpr &Call = Unit.call("__shfl_xor_sync");
  EXPECT_FALSE(ignoredAt(Unit, Call).has_value());
}

TEST(IgnoredMaskArgument, CallOutsideAMacroHasNoMaskParameter) {
  ParsedUnit Unit(withWrappers("  p[0] = legacy_xor(v, 1);"));
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  const clang::CallExpr &Call = Unit.call("legacy_xor");
  EXPECT_FALSE(ignoredAt(Unit, Call).has_value());
}

TEST(IgnoredMaskArgument, ArgumentTextIsReadThroughNestedParentheses) {
  ParsedUnit Unit(withWrappers("  p[0] = SHFL_XOR(v, (1, 2), (HALF | 1u));"));
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  const clang::CallExpr &Call = Unit.call("legacy_xor");
  std::optional<IgnoredMaskParameter> Param = ignoredAt(Unit, Call);
  ASSERT_TRUE(Param.has_value());
  EXPECT_EQ("(HALF | 1u)", argumentOf(Unit, Call, *Param));
}

TEST(IgnoredMaskArgument, FullMaskArgumentIsALiteralOrAFullMaskMacro) {
  ParsedUnit Unit(withWrappers("  p[0] = v;"));
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  clang::SourceLocation Use = Unit.function("k").getBody()->getBeginLoc();
  const FullMaskMacros &Macros = Unit.fullMasks();
  EXPECT_TRUE(isFullMaskArgument("0xffffffff", Use, Macros, Unit.sources()));
  EXPECT_TRUE(isFullMaskArgument("FULL", Use, Macros, Unit.sources()));
  EXPECT_FALSE(isFullMaskArgument("HALF", Use, Macros, Unit.sources()));
  EXPECT_FALSE(isFullMaskArgument("mask", Use, Macros, Unit.sources()));
  EXPECT_FALSE(isFullMaskArgument("0x0000ffff", Use, Macros, Unit.sources()));
}

} // namespace
} // namespace warpfix::test
