// The code a parse could not analyse: branches that an `#if` on the
// architecture hid. A legacy call there must be reported as not analysed, not
// passed over; a branch that `#if 0` hides is nobody's code to report.
#include "checks/analysis/SkippedCode.h"
#include "unittests/analysis/ParsedUnit.h"
#include "gtest/gtest.h"

namespace warpfix::test {
namespace {

/// Where Marker first stands in the main file, whatever the parse made of
/// the text there.
clang::SourceLocation locationOf(ParsedUnit &Unit, llvm::StringRef Code,
                                 llvm::StringRef Marker) {
  const clang::SourceManager &SM = Unit.sources();
  size_t Offset = Code.find(Marker);
  EXPECT_NE(llvm::StringRef::npos, Offset) << Marker.str();
  return SM.getLocForStartOfFile(SM.getMainFileID()).getLocWithOffset(Offset);
}

/// The region of the unit's skipped code that holds Marker, or null.
const SkippedCode::Region *regionAt(ParsedUnit &Unit, llvm::StringRef Code,
                                    llvm::StringRef Marker) {
  return Unit.skipped().regionHolding(locationOf(Unit, Code, Marker),
                                      Unit.sources());
}

TEST(SkippedCode, BranchForOtherArchitecturesIsARegionWithItsReason) {
  llvm::StringRef Code = "__global__ void k(int *p, int v) {\n"
                         "#if __CUDA_ARCH__ < 700\n"
                         "  p[0] = old_shuffle(v);\n"
                         "#endif\n"
                         "  p[1] = v; }\n";
  ParsedUnit Unit(Code);
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  clang::SourceLocation Hidden = locationOf(Unit, Code, "old_shuffle");
  const SkippedCode::Region *Region =
      Unit.skipped().regionHolding(Hidden, Unit.sources());
  ASSERT_NE(nullptr, Region);
  EXPECT_TRUE(
      llvm::StringRef(Region->Reason).starts_with(ArchitectureSkipsReason));
  EXPECT_NE(std::string::npos, Region->Reason.find("__CUDA_ARCH__ < 700"));
  EXPECT_FALSE(Region->HostOnly);
  EXPECT_TRUE(Unit.skipped().hides(Hidden, Unit.sources()));
  EXPECT_FALSE(
      Unit.skipped().hides(locationOf(Unit, Code, "p[1]"), Unit.sources()));
}

TEST(SkippedCode, HostBranchOfCudaArchIsHostOnly) {
  llvm::StringRef Code = "__host__ __device__ int f(int v) {\n"
                         "#ifndef __CUDA_ARCH__\n"
                         "  return host_only(v);\n"
                         "#else\n"
                         "  return v;\n"
                         "#endif\n"
                         "}\n";
  ParsedUnit Unit(Code);
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  const SkippedCode::Region *Region = regionAt(Unit, Code, "host_only");
  ASSERT_NE(nullptr, Region);
  EXPECT_TRUE(Region->HostOnly);
}

TEST(SkippedCode, IfZeroIsSkippedButNotAnUnanalysedRegion) {
  llvm::StringRef Code = "__global__ void k(int *p) {\n"
                         "#if 0\n"
                         "  p[0] = never(1);\n"
                         "#endif\n"
                         "  p[1] = 2; }\n";
  ParsedUnit Unit(Code);
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  clang::SourceLocation Never = locationOf(Unit, Code, "never");
  EXPECT_TRUE(Unit.skipped().skippedByPreprocessor(Never, Unit.sources()));
  EXPECT_FALSE(Unit.skipped().hides(Never, Unit.sources()));
  EXPECT_EQ(nullptr, Unit.skipped().regionHolding(Never, Unit.sources()));
}

TEST(SkippedCode, RawTokensOfARegionHoldItsNames) {
  llvm::StringRef Code = "__global__ void k(int *p, int v) {\n"
                         "#if __CUDA_ARCH__ < 300\n"
                         "  p[0] = __shfl_down(v, 1);\n"
                         "#endif\n"
                         "}\n";
  ParsedUnit Unit(Code);
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  const SkippedCode::Region *Region = regionAt(Unit, Code, "__shfl_down");
  ASSERT_NE(nullptr, Region);
  bool Found = false;
  for (const clang::Token &T : SkippedCode::rawTokens(*Region, Unit.sources()))
    Found |= T.is(clang::tok::raw_identifier) &&
             T.getRawIdentifier() == "__shfl_down";
  EXPECT_TRUE(Found);
}

TEST(SkippedCode, CodeAddedAsUnanalysedIsHidden) {
  llvm::StringRef Code = "__global__ void k(int *p) { p[0] = 1; }\n";
  ParsedUnit Unit(Code);
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  SkippedCode Skipped;
  clang::SourceRange Body = Unit.function("k").getBody()->getSourceRange();
  Skipped.addUnanalysed(Body, "a reason");
  EXPECT_TRUE(Skipped.hides(locationOf(Unit, Code, "p[0]"), Unit.sources()));
  ASSERT_EQ(1u, Skipped.regions().size());
  EXPECT_EQ("a reason", Skipped.regions()[0].Reason);
}

TEST(SkippedCode, DirectiveLinesBetweenTwoPlaces) {
  llvm::StringRef Code = "__global__ void k(int *p) {\n"
                         "  p[0] = 1;\n"
                         "#pragma unroll\n"
                         "  for (int i = 0; i < 2; ++i) p[i] = i;\n"
                         "#define LATE 1\n"
                         "  p[1] = LATE; }\n";
  ParsedUnit Unit(Code);
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  const clang::SourceManager &SM = Unit.sources();
  clang::SourceLocation First = locationOf(Unit, Code, "p[0]");
  clang::SourceLocation Loop = locationOf(Unit, Code, "for");
  clang::SourceLocation Last = locationOf(Unit, Code, "p[1]");
  EXPECT_TRUE(directiveLineBetween(First, Loop, SM));
  EXPECT_FALSE(directiveLineBetween(First, Loop, SM, /*DefinitionsOnly=*/true));
  EXPECT_TRUE(directiveLineBetween(Loop, Last, SM, /*DefinitionsOnly=*/true));
  // Backwards: an edit across it cannot be judged.
  EXPECT_TRUE(directiveLineBetween(Last, First, SM));
}

} // namespace
} // namespace warpfix::test
