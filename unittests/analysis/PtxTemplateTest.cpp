// Reading the PTX of an inline asm template and writing the `.sync` form of
// a legacy warp instruction. Pure functions of strings: no parse needed. A
// template read wrongly is an edit in the wrong bytes of the user's asm.
#include "checks/analysis/PtxTemplate.h"
#include "gtest/gtest.h"

namespace warpfix::ptx {
namespace {

std::string applied(llvm::StringRef Text, const std::vector<Edit> &Edits) {
  std::string Result = Text.str();
  // From the end, so that earlier offsets stay valid.
  for (auto It = Edits.rbegin(); It != Edits.rend(); ++It)
    Result.replace(It->Offset, It->Length, It->Text);
  return Result;
}

TEST(PtxTemplate, ReadsGuardOpcodeAndOperands) {
  llvm::StringRef Text = "@p shfl.down.b32 %0, %1, %2, %3;";
  std::optional<Template> T = parse(Text, Syntax::Extended);
  ASSERT_TRUE(T.has_value());
  ASSERT_EQ(1u, T->Instructions.size());
  const Instruction &I = T->Instructions[0];
  ASSERT_TRUE(I.Guard.has_value());
  EXPECT_EQ("shfl.down.b32", I.OpcodeText);
  ASSERT_EQ(4u, I.Operands.size());
  EXPECT_EQ("%2", I.Operands[2].Text);
  ASSERT_TRUE(I.Operands[2].Reference.has_value());
  EXPECT_EQ(4u, T->References.size());
}

TEST(PtxTemplate, PercentEscapeIsARegisterInExtendedSyntax) {
  std::optional<Template> T =
      parse("shfl.idx.b32 %%r1, %%r2, 0, 0x1f;", Syntax::Extended);
  ASSERT_TRUE(T.has_value());
  ASSERT_EQ(1u, T->Instructions.size());
  EXPECT_EQ("%r1", T->Instructions[0].Operands[0].Text);
  EXPECT_TRUE(T->References.empty());
}

TEST(PtxTemplate, DirectivesLabelsAndCommentsAreNotInstructions) {
  std::optional<Template> T =
      parse("{ .reg .pred p; // a comment\n"
            "L1: /* vote.any.pred p, 1; */ vote.any.pred p, %1; }",
            Syntax::Extended);
  ASSERT_TRUE(T.has_value());
  ASSERT_EQ(1u, T->Instructions.size());
  EXPECT_EQ("vote.any.pred", T->Instructions[0].OpcodeText);
}

TEST(PtxTemplate, BrokenOperandReferenceFails) {
  EXPECT_FALSE(parse("mov.b32 %0, %;", Syntax::Extended).has_value());
  EXPECT_TRUE(parse("mov.b32 %r0, %r1;", Syntax::Basic).has_value());
}

TEST(PtxTemplate, LegacyFormsAndTheirSyncOpcodes) {
  std::optional<Template> T =
      parse("shfl.bfly.b32 %0, %1, %2, %3; vote.ballot.b32 %0, %4;"
            "shfl.sync.up.b32 %0, %1, %2, %3, %5; vote.any.pred %6, %4;",
            Syntax::Extended);
  ASSERT_TRUE(T.has_value());
  ASSERT_EQ(4u, T->Instructions.size());
  std::optional<LegacyForm> Shuffle = legacyForm(T->Instructions[0]);
  ASSERT_TRUE(Shuffle.has_value());
  EXPECT_EQ("shfl.sync.bfly.b32", Shuffle->SyncOpcode);
  EXPECT_TRUE(Shuffle->Problem.empty());
  std::optional<LegacyForm> Ballot = legacyForm(T->Instructions[1]);
  ASSERT_TRUE(Ballot.has_value());
  EXPECT_EQ("vote.sync.ballot.b32", Ballot->SyncOpcode);
  EXPECT_FALSE(legacyForm(T->Instructions[2]).has_value());
  ASSERT_TRUE(legacyForm(T->Instructions[3]).has_value());
}

TEST(PtxTemplate, WrongOperandCountIsAProblemNotAnEdit) {
  std::optional<Template> T =
      parse("shfl.down.b32 %0, %1, %2;", Syntax::Extended);
  ASSERT_TRUE(T.has_value());
  std::optional<LegacyForm> Form = legacyForm(T->Instructions[0]);
  ASSERT_TRUE(Form.has_value());
  EXPECT_FALSE(Form->Problem.empty());
}

TEST(PtxTemplate, ToSyncKeepsGuardSpacingAndComments) {
  llvm::StringRef Text = "@!p  shfl.up.b32 %0, %1, 1, 0 /* c */;";
  std::optional<Template> T = parse(Text, Syntax::Extended);
  ASSERT_TRUE(T.has_value());
  EXPECT_EQ("@!p  shfl.sync.up.b32 %0, %1, 1, 0, %4 /* c */;",
            applied(Text, toSync(T->Instructions[0], "%4")));
}

TEST(PtxTemplate, ToSyncOfAVoteWithAnImmediateMask) {
  llvm::StringRef Text = "vote.all.pred p, q;";
  std::optional<Template> T = parse(Text, Syntax::Basic);
  ASSERT_TRUE(T.has_value());
  EXPECT_EQ("vote.sync.all.pred p, q, 0xffffffff;",
            applied(Text, toSync(T->Instructions[0], "0xffffffff")));
}

} // namespace
} // namespace warpfix::ptx
