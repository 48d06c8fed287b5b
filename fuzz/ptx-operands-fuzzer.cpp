// The PTX operand rewriter of warp-legacy-ptx (checks/analysis/PtxTemplate,
// checks/analysis/AsmOperands), on any bytes. The first byte picks what is
// fuzzed, the rest is the text:
// - an inline asm template, read as basic or extended asm: every span lies in
//   the text, in order; each legacy shfl/vote that can be rewritten, once
//   rewritten with an immediate or an operand reference as its member mask,
//   reads back as its .sync form with the mask as its last operand, the
//   other instructions unchanged;
// - an asm statement's operand list (the bytes lexed as C++ lexes them, with
//   `::` one token): an input appended where appendInput says lies inside the
//   parentheses, and the statement so written takes a second one.
#include "checks/analysis/AsmOperands.h"
#include "checks/analysis/PtxTemplate.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdint>
#include <cstdlib>

using namespace warpfix;

namespace {

[[noreturn]] void fail(const llvm::Twine &What, llvm::StringRef Text) {
  llvm::errs() << "ptx-operands-fuzzer: " << What << "\n--- text ---\n"
               << Text << "\n------------\n";
  std::abort();
}

void checkSpan(ptx::Span S, llvm::StringRef Text, const char *What) {
  if (S.Begin > S.End || S.End > Text.size())
    fail(llvm::Twine(What) + " out of the text: [" + llvm::Twine(S.Begin) +
             ", " + llvm::Twine(S.End) + ")",
         Text);
}

void checkShape(const ptx::Template &T, llvm::StringRef Text) {
  unsigned Previous = 0;
  for (const ptx::OperandRef &R : T.References) {
    checkSpan(R.Where, Text, "an operand reference");
    if (R.Where.Begin < Previous)
      fail("operand references out of order", Text);
    Previous = R.Where.End;
  }
  Previous = 0;
  for (const ptx::Instruction &I : T.Instructions) {
    checkSpan(I.Whole, Text, "an instruction");
    checkSpan(I.Opcode, Text, "an opcode");
    if (I.Whole.Begin < Previous)
      fail("instructions overlap", Text);
    Previous = I.Whole.End;
    if (I.Opcode.Begin < I.Whole.Begin || I.Opcode.End > I.Whole.End)
      fail("an opcode outside its instruction", Text);
    if (I.Guard) {
      checkSpan(*I.Guard, Text, "a guard");
      if (I.Guard->End > I.Opcode.Begin)
        fail("a guard after its opcode", Text);
    }
    if (I.Semicolon && (*I.Semicolon >= Text.size() || Text[*I.Semicolon] != ';'))
      fail("a semicolon that is no ';'", Text);
    unsigned After = I.Opcode.End;
    for (const ptx::Operand &Op : I.Operands) {
      checkSpan(Op.Where, Text, "an operand");
      if (Op.Where.Begin < After || Op.Where.End > I.Whole.End)
        fail("an operand out of order or outside its instruction", Text);
      After = Op.Where.End;
      if (Op.Reference && *Op.Reference >= T.References.size())
        fail("an operand whose reference does not exist", Text);
    }
    if (std::optional<size_t> Mask = ptx::memberMaskOperand(I))
      if (*Mask >= I.Operands.size())
        fail("a member mask operand that does not exist", Text);
  }
}

/// Rewrites each legacy instruction of T alone, and reads the result back.
void checkRewrites(const ptx::Template &T, llvm::StringRef Text, ptx::Syntax S,
                   bool MaskIsReference) {
  // An operand reference is only something else than text in an extended
  // template; the number is one past the highest referenced, as a new input.
  std::string Mask = "0xffffffff";
  if (S == ptx::Syntax::Extended && MaskIsReference) {
    unsigned Next = 0;
    for (const ptx::OperandRef &R : T.References)
      if (R.Number)
        Next = std::max(Next, *R.Number + 1);
    // (clang reads no number past 100000 as an operand reference.)
    Mask = "%" + std::to_string(std::min(Next, 99999u));
  }
  for (size_t K = 0; K < T.Instructions.size(); ++K) {
    const ptx::Instruction &I = T.Instructions[K];
    std::optional<ptx::LegacyForm> Form = ptx::legacyForm(I);
    if (!Form || !Form->Problem.empty())
      continue;
    std::vector<ptx::Edit> Edits = ptx::toSync(I, Mask);
    unsigned At = 0;
    for (const ptx::Edit &E : Edits) {
      if (E.Offset < At || E.Offset + E.Length > Text.size())
        fail("edits out of order or out of the text", Text);
      At = E.Offset + E.Length;
    }
    std::string New = ptx::apply(Text, Edits);
    std::optional<ptx::Template> Again = ptx::parse(New, S);
    if (!Again)
      fail("the rewritten template does not parse", New);
    checkShape(*Again, New);
    if (Again->Instructions.size() != T.Instructions.size())
      fail("the rewrite changed the number of instructions", New);
    size_t NewReferences =
        T.References.size() + (llvm::StringRef(Mask).starts_with("%") ? 1 : 0);
    if (Again->References.size() != NewReferences)
      fail("the rewrite changed the operand references", New);
    for (size_t J = 0; J < T.Instructions.size(); ++J) {
      const ptx::Instruction &Old = T.Instructions[J];
      const ptx::Instruction &Now = Again->Instructions[J];
      if (J != K) {
        if (Now.OpcodeText != Old.OpcodeText ||
            Now.Operands.size() != Old.Operands.size())
          fail("the rewrite changed another instruction", New);
        for (size_t O = 0; O < Old.Operands.size(); ++O)
          if (Now.Operands[O].Text != Old.Operands[O].Text)
            fail("the rewrite changed another instruction's operand", New);
        continue;
      }
      if (Now.OpcodeText != Form->SyncOpcode)
        fail("the rewritten opcode is '" + Now.OpcodeText + "', not '" +
                 Form->SyncOpcode + "'",
             New);
      if (ptx::legacyForm(Now))
        fail("the rewritten instruction is still legacy", New);
      if (Now.Operands.size() != Old.Operands.size() + 1)
        fail("the rewrite did not add exactly one operand", New);
      for (size_t O = 0; O < Old.Operands.size(); ++O)
        if (Now.Operands[O].Text != Old.Operands[O].Text)
          fail("the rewrite changed an operand", New);
      std::optional<size_t> MaskOperand = ptx::memberMaskOperand(Now);
      if (!MaskOperand || *MaskOperand != Old.Operands.size())
        fail("the rewritten instruction has no member mask operand", New);
      if (Now.Operands[*MaskOperand].Text != Mask)
        fail("the member mask reads '" + Now.Operands[*MaskOperand].Text +
                 "', not '" + Mask + "'",
             New);
      if (!Now.Semicolon)
        fail("the rewritten instruction lost its ';'", New);
    }
  }
}

void fuzzTemplate(llvm::StringRef Text, ptx::Syntax S, bool MaskIsReference) {
  std::optional<ptx::Template> T = ptx::parse(Text, S);
  if (!T) {
    if (S == ptx::Syntax::Basic)
      fail("a basic template, which has no '%' syntax to break, did not parse",
           Text);
    return;
  }
  checkShape(*T, Text);
  checkRewrites(*T, Text, S, MaskIsReference);
}

/// Text lexed as clang lexes the tokens of an asm statement's parentheses:
/// `::` is one token (greedily, so `:::` is `::` then `:`), a string or a run
/// of other non-space characters is one Other token.
std::vector<asmops::Token> lex(llvm::StringRef Text) {
  std::vector<asmops::Token> Tokens;
  for (unsigned I = 0; I < Text.size();) {
    char C = Text[I];
    if (C == ' ' || C == '\n' || C == '\t') {
      ++I;
      continue;
    }
    asmops::Token::Kind K = asmops::Token::Other;
    unsigned Length = 1;
    switch (C) {
    case '(': K = asmops::Token::LParen; break;
    case ')': K = asmops::Token::RParen; break;
    case '[': K = asmops::Token::LSquare; break;
    case ']': K = asmops::Token::RSquare; break;
    case ',': K = asmops::Token::Comma; break;
    case ':':
      if (I + 1 < Text.size() && Text[I + 1] == ':') {
        K = asmops::Token::ColonColon;
        Length = 2;
      } else {
        K = asmops::Token::Colon;
      }
      break;
    case '"': {
      size_t Close = Text.find('"', I + 1);
      Length = Close == llvm::StringRef::npos ? Text.size() - I
                                              : unsigned(Close + 1 - I);
      break;
    }
    default:
      while (I + Length < Text.size() &&
             !llvm::is_contained(llvm::StringRef("()[],:\" \n\t"),
                                 Text[I + Length]))
        ++Length;
    }
    Tokens.push_back({K, I, Length});
    I += Length;
  }
  return Tokens;
}

void fuzzOperands(llvm::StringRef Text) {
  std::vector<asmops::Token> Tokens = lex(Text);
  // The counts the compiler would see are unknown here: every small pair is
  // tried, and appendInput takes at most the one its tokens show.
  for (unsigned Outputs = 0; Outputs < 5; ++Outputs)
    for (unsigned Inputs = 0; Inputs < 5; ++Inputs) {
      std::string Why;
      std::optional<asmops::Insertion> First = asmops::appendInput(
          Tokens, Outputs, Inputs, "\"r\"(m)", Why);
      if (!First) {
        if (Why.empty())
          fail("a refusal without a reason", Text);
        continue;
      }
      if (Tokens.empty() || First->Offset <= Tokens.front().Offset ||
          First->Offset > Tokens.back().Offset)
        fail("an input appended outside the parentheses", Text);
      std::string Once = Text.str();
      Once.insert(First->Offset, First->Text);
      std::optional<asmops::Insertion> Second = asmops::appendInput(
          lex(Once), Outputs, Inputs + 1, "\"r\"(n)", Why);
      if (!Second)
        fail("an appended input leaves no place for another: " + Why, Once);
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  if (Size == 0)
    return 0;
  llvm::StringRef Text(reinterpret_cast<const char *>(Data) + 1, Size - 1);
  switch (Data[0] % 4) {
  case 0:
    fuzzTemplate(Text, ptx::Syntax::Basic, false);
    break;
  case 1:
    fuzzTemplate(Text, ptx::Syntax::Extended, false);
    break;
  case 2:
    fuzzTemplate(Text, ptx::Syntax::Extended, true);
    break;
  case 3:
    fuzzOperands(Text);
    break;
  }
  return 0;
}
