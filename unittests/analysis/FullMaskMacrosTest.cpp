// Which macros spell the full mask, and where a fix may write one. A macro
// taken for the full mask that is not, or one used where it is not defined,
// is a fix with the wrong mask, or one that does not compile.
#include "checks/analysis/FullMaskMacros.h"
#include "unittests/analysis/ParsedUnit.h"
#include "gtest/gtest.h"

namespace warpfix::test {
namespace {

TEST(FullMaskMacros, LiteralSpellingsOfTheFullMask) {
  for (llvm::StringRef Text : {"0xffffffff", "0xFFFFFFFFu", "4294967295U",
                               "(~0u)", "~0", "0xffffffffUL"})
    EXPECT_TRUE(isFullMaskSpelling(Text)) << Text.str();
  for (llvm::StringRef Text : {"0xffff", "~1", "0xfffffffe", "-1", "FULL"})
    EXPECT_FALSE(isFullMaskSpelling(Text)) << Text.str();
}

TEST(FullMaskMacros,
     FileMacroIsWrittenOnlyAfterItsDefinitionAndBeforeItsUndef) {
  ParsedUnit Unit("__global__ void before(int *p) { p[0] = 1; }\n"
                  "#define FULL_MASK 0xffffffffu\n"
                  "__global__ void inside(int *p) { p[0] = 2; }\n"
                  "#undef FULL_MASK\n"
                  "__global__ void after(int *p) { p[0] = 3; }\n");
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  auto SpellingIn = [&](llvm::StringRef Kernel) {
    return Unit.fullMasks().spellingAt(
        Unit.function(Kernel).getBody()->getBeginLoc(), Unit.sources(),
        "0xffffffff");
  };
  EXPECT_EQ("0xffffffff", SpellingIn("before"));
  EXPECT_EQ("FULL_MASK", SpellingIn("inside"));
  EXPECT_EQ("0xffffffff", SpellingIn("after"));
}

TEST(FullMaskMacros, MacrosThatAreNotTheFullMaskAreNotRecorded) {
  ParsedUnit Unit("#define HALF 0xffff\n"
                  "#define ALL(x) 0xffffffff\n"
                  "#define EMPTY\n"
                  "__global__ void k(int *p) { p[0] = 1; }\n");
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  clang::SourceLocation Use = Unit.function("k").getBody()->getBeginLoc();
  EXPECT_EQ("0xffffffff",
            Unit.fullMasks().spellingAt(Use, Unit.sources(), "0xffffffff"));
  for (llvm::StringRef Name : {"HALF", "ALL", "EMPTY"})
    EXPECT_FALSE(Unit.fullMasks().namesFullMask(Name, Use, Unit.sources()))
        << Name.str();
}

TEST(FullMaskMacros, ReadingAMaskNeedsTheDefinitionInForceAtTheUse) {
  ParsedUnit Unit("#define ALL_LANES (~0u)\n"
                  "__global__ void k(int *p) { p[0] = 1; }\n"
                  "#undef ALL_LANES\n"
                  "__global__ void later(int *p) { p[0] = 2; }\n");
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  EXPECT_TRUE(Unit.fullMasks().namesFullMask(
      "ALL_LANES", Unit.function("k").getBody()->getBeginLoc(),
      Unit.sources()));
  EXPECT_FALSE(Unit.fullMasks().namesFullMask(
      "ALL_LANES", Unit.function("later").getBody()->getBeginLoc(),
      Unit.sources()));
}

} // namespace
} // namespace warpfix::test
