// The PTX of an inline asm statement as clang parsed it: its operand
// references against clang's numbering, and template bytes mapped back to the
// characters that spell them. A byte mapped to the wrong character is an edit
// in the wrong place of the user's asm.
#include "checks/analysis/InlinePtx.h"
#include "unittests/analysis/ParsedUnit.h"
#include "gtest/gtest.h"

namespace warpfix::test {
namespace {

const clang::GCCAsmStmt &onlyAsm(ParsedUnit &Unit) {
  return Unit.nth<clang::GCCAsmStmt>(0);
}

/// The character that Loc points at.
char characterAt(ParsedUnit &Unit, clang::SourceLocation Loc) {
  return *Unit.sources().getCharacterData(Unit.sources().getSpellingLoc(Loc));
}

TEST(InlinePtx, OperandReferencesAgreeWithClangsNumbering) {
  ParsedUnit Unit(
      "__device__ int f(int v, int d) { int r;"
      "  asm(\"shfl.down.b32 %0, %1, %2, 0x1f;\" : \"=r\"(r) : \"r\"(v),"
      "      \"r\"(d));"
      "  return r; }");
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  std::optional<InlinePtx> Ptx = readInlinePtx(onlyAsm(Unit), Unit.context());
  ASSERT_TRUE(Ptx.has_value());
  EXPECT_TRUE(Ptx->AgreesWithClang);
  ASSERT_EQ(1u, Ptx->Template.Instructions.size());
  EXPECT_EQ((std::vector<unsigned>{0, 1, 2}), Ptx->OperandNumbers);
}

TEST(InlinePtx, NamedOperandsTakeClangsNumbers) {
  ParsedUnit Unit("__device__ int f(int v) { int r;"
                  "  asm(\"mov.b32 %[out], %[in];\" : [out] \"=r\"(r)"
                  "      : [in] \"r\"(v));"
                  "  return r; }");
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  std::optional<InlinePtx> Ptx = readInlinePtx(onlyAsm(Unit), Unit.context());
  ASSERT_TRUE(Ptx.has_value());
  EXPECT_TRUE(Ptx->AgreesWithClang);
  EXPECT_EQ((std::vector<unsigned>{0, 1}), Ptx->OperandNumbers);
}

TEST(InlinePtx, TemplateBytesMapToTheirCharactersAcrossLiterals) {
  ParsedUnit Unit("__device__ int f(int v) { int r;"
                  "  asm(\"mov.b32 \" \"%0, %1;\" : \"=r\"(r) : \"r\"(v));"
                  "  return r; }");
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  std::optional<InlinePtx> Ptx = readInlinePtx(onlyAsm(Unit), Unit.context());
  ASSERT_TRUE(Ptx.has_value());
  // "mov.b32 " is 8 bytes: byte 8 is the '%' of the second literal.
  EXPECT_EQ('m', characterAt(Unit, Ptx->locationOf(0, Unit.context())));
  EXPECT_EQ('%', characterAt(Unit, Ptx->locationOf(8, Unit.context())));
  // An insertion after byte 7 stays in the first literal, before its quote,
  // not at the start of the second.
  clang::SourceLocation After = Ptx->insertionAfter(8, Unit.context());
  ASSERT_TRUE(After.isValid());
  EXPECT_EQ('"', characterAt(Unit, After));
  EXPECT_FALSE(Ptx->insertionAfter(0, Unit.context()).isValid());
}

TEST(InlinePtx, NoInsertionRightAfterAnEscapeSequence) {
  ParsedUnit Unit("__device__ int f(int v) { int r;"
                  "  asm(\"mov.b32 %0, %1;\\n\\tmov.b32 %0, %0;\""
                  "      : \"=r\"(r) : \"r\"(v));"
                  "  return r; }");
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  std::optional<InlinePtx> Ptx = readInlinePtx(onlyAsm(Unit), Unit.context());
  ASSERT_TRUE(Ptx.has_value());
  // Bytes 15 and 16 are the newline and the tab, each spelled with '\'.
  EXPECT_FALSE(Ptx->insertionAfter(16, Unit.context()).isValid());
  EXPECT_FALSE(Ptx->insertionAfter(17, Unit.context()).isValid());
  EXPECT_TRUE(Ptx->insertionAfter(15, Unit.context()).isValid());
}

TEST(InlinePtx, RewrittenInstructionAppliesItsEdits) {
  ParsedUnit Unit("__device__ int f(int v) { int r;"
                  "  asm(\"mov.b32 %0, %1; shfl.bfly.b32 %0, %0, 1, 0x1f;\""
                  "      : \"=r\"(r) : \"r\"(v));"
                  "  return r; }");
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  std::optional<InlinePtx> Ptx = readInlinePtx(onlyAsm(Unit), Unit.context());
  ASSERT_TRUE(Ptx.has_value());
  ASSERT_EQ(2u, Ptx->Template.Instructions.size());
  const ptx::Instruction &Shuffle = Ptx->Template.Instructions[1];
  EXPECT_EQ("shfl.bfly.b32 %0, %0, 1, 0x1f;", Ptx->rewritten(Shuffle, {}));
  EXPECT_EQ("shfl.sync.bfly.b32 %0, %0, 1, 0x1f, 0xffffffff;",
            Ptx->rewritten(Shuffle, ptx::toSync(Shuffle, "0xffffffff")));
}

TEST(InlinePtx, DeviceFunctionsHoldPtxAndHostFunctionsDoNot) {
  ParsedUnit Unit("__device__ void d() {}"
                  "__global__ void g() {}"
                  "__host__ __device__ void hd() {}"
                  "void h() {}");
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  EXPECT_TRUE(isDeviceFunction(Unit.function("d")));
  EXPECT_TRUE(isDeviceFunction(Unit.function("g")));
  EXPECT_TRUE(isDeviceFunction(Unit.function("hd")));
  EXPECT_FALSE(isDeviceFunction(Unit.function("h")));
}

TEST(InlinePtx, StatementThatAMacroWritesHasNoTokens) {
  ParsedUnit Unit(
      "#define MOV(r, v) asm(\"mov.b32 %0, %1;\" : \"=r\"(r) : \"r\"(v))\n"
      "__device__ int f(int v) { int r; MOV(r, v); return r; }\n"
      "__device__ int g(int v) { int r;\n"
      "  asm(\"mov.b32 %0, %1;\" : \"=r\"(r) : \"r\"(v));\n"
      "  return r; }\n");
  ASSERT_TRUE(Unit.parsed()) << Unit.errors();
  std::string Why;
  EXPECT_FALSE(
      asmStatementTokens(Unit.nth<clang::GCCAsmStmt>(0), Unit.context(), Why)
          .has_value());
  EXPECT_NE(std::string::npos, Why.find("written by a macro")) << Why;
  Why.clear();
  std::optional<std::vector<asmops::Token>> Tokens =
      asmStatementTokens(Unit.nth<clang::GCCAsmStmt>(1), Unit.context(), Why);
  ASSERT_TRUE(Tokens.has_value()) << Why;
  EXPECT_EQ(asmops::Token::RParen, Tokens->back().K);
}

} // namespace
} // namespace warpfix::test
