#include "checks/warp-legacy-ptx.h"
#include "checks/MaskFix.h"
#include "checks/analysis/Analyses.h"
#include "checks/analysis/InlinePtx.h"
#include "checks/analysis/LaneDependence.h"
#include "checks/analysis/Membership.h"
#include "checks/analysis/SkippedCode.h"
#include "checks/analysis/SystemHeaders.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace warpfix {
namespace {

/// The immediate that names every lane. PTX has no macros, so the file's own
/// FULL_MASK spelling cannot be used inside the template.
constexpr llvm::StringLiteral FullMaskImmediate = "0xffffffff";

std::string message(const ptx::Instruction &I, const ptx::LegacyForm &Form) {
  std::string Text = "'" + I.OpcodeText +
                     "' is legacy PTX without .sync, which ptxas rejects "
                     "for sm_70 and later";
  if (!Form.SyncOpcode.empty())
    Text += "; use '" + Form.SyncOpcode + "' with an explicit member mask";
  return Text;
}

/// Applies template edits to the string literal, each one anchored in the
/// literal token that holds the byte before it. False (and the fix dropped)
/// when one cannot be placed exactly.
bool editTemplate(const InlinePtx &Ptx, llvm::ArrayRef<ptx::Edit> Edits,
                  FindingBuilder &Finding, ASTContext &Ctx) {
  std::vector<SourceLocation> Places;
  for (const ptx::Edit &E : Edits) {
    SourceLocation At = Ptx.insertionAfter(E.Offset, Ctx);
    if (At.isInvalid())
      return false;
    Places.push_back(At);
  }
  for (size_t I = 0; I < Edits.size(); ++I)
    Finding.insertBefore(Places[I], Edits[I].Text);
  return true;
}

/// The input operand that carries the member mask into the template, and
/// how it is referred to there; nothing (with the reason) when appending one
/// could change the meaning of the template or cannot be placed.
struct MaskOperand {
  asmops::Insertion Insert;
  std::string Reference; ///< `%4`
};
std::optional<MaskOperand> maskOperand(const InlinePtx &Ptx,
                                       const ptx::Instruction &I,
                                       llvm::StringRef Value,
                                       const ASTContext &Ctx,
                                       std::string &Why) {
  const GCCAsmStmt &Asm = *Ptx.Asm;
  unsigned Next = Asm.getNumOutputs() + Asm.getNumInputs();
  for (unsigned Number : Ptx.OperandNumbers)
    if (Number >= Next) {
      // The hidden inputs of "+r" operands are numbered after the inputs; a
      // new input would take the number such a reference uses.
      Why = "the template refers to operand %" + std::to_string(Number) +
            ", numbered after the inputs, which a new input would renumber";
      return std::nullopt;
    }
  if (Asm.isAsmGoto()) {
    Why = "the labels of an asm goto are numbered after its inputs, so a new "
          "input would renumber them";
    return std::nullopt;
  }
  std::optional<std::vector<asmops::Token>> Tokens =
      asmStatementTokens(Asm, Ctx, Why);
  if (!Tokens)
    return std::nullopt;
  // The reference to the new operand must be written in this statement's
  // own template: in a macro body it would name operand N of every
  // statement that uses the macro, whatever that operand is there.
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Reference =
      SM.getSpellingLoc(Ptx.locationOf(I.Operands.back().Where.End - 1, Ctx));
  if (SM.getFileID(Reference) != SM.getFileID(Asm.getAsmLoc()) ||
      SM.isBeforeInTranslationUnit(Reference, Asm.getAsmLoc()) ||
      SM.isBeforeInTranslationUnit(Asm.getRParenLoc(), Reference)) {
    Why = "the template is written by a macro, where a reference to the new "
          "operand would name that operand of every statement that uses it";
    return std::nullopt;
  }
  std::optional<asmops::Insertion> Insert = asmops::appendInput(
      *Tokens, Asm.getNumOutputs(), Asm.getNumInputs(),
      ("\"r\"(" + Value + ")").str(), Why);
  if (!Insert)
    return std::nullopt;
  return MaskOperand{*Insert, "%" + std::to_string(Next)};
}

} // namespace

void WarpLegacyPtxCheck::onAsm(const AsmStmt &Statement, ASTContext &Ctx) {
  // MS-style __asm blocks are x86; only GCC-style statements hold PTX.
  const auto *Asm = dyn_cast<GCCAsmStmt>(&Statement);
  if (Asm)
    AsmInAst.push_back(
        Ctx.getSourceManager().getExpansionRange(Asm->getSourceRange())
            .getAsRange());
  if (!Asm || isExpansionInSystemHeader(Statement, Ctx.getSourceManager()))
    return;
  const FunctionDecl *F = enclosingFunction(Ctx, Asm);
  // Host functions hold the host's assembly; only device code holds PTX.
  if (!F || !isDeviceFunction(*F))
    return;
  // A template that is instantiated is analysed in its instantiations, each
  // with its own copy of the statement.
  if (context().analyses(Ctx).Calls.judgedInInstantiations(F))
    return;
  std::optional<InlinePtx> Ptx = readInlinePtx(*Asm, Ctx);
  if (!Ptx)
    return;
  for (const ptx::Instruction &I : Ptx->Template.Instructions)
    if (std::optional<ptx::LegacyForm> Form = ptx::legacyForm(I))
      checkInstruction(*Ptx, I, *Form, Ctx);
}

void WarpLegacyPtxCheck::checkInstruction(const InlinePtx &Ptx,
                                          const ptx::Instruction &I,
                                          const ptx::LegacyForm &Form,
                                          ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation At = Ptx.locationOf(I.Opcode.Begin, Ctx);
  FindingBuilder Finding = report(At, message(I, Form));
  if (At.isMacroID())
    Finding.note(SM.getExpansionLoc(At), "in this expansion of a macro");
  if (!Form.Problem.empty()) {
    Finding.withoutFix(At, "no automatic fix: " + Form.Problem);
    return;
  }
  auto Candidate = [&](llvm::StringRef Mask) {
    return "candidate rewrite: " + Ptx.rewritten(I, ptx::toSync(I, Mask));
  };
  if (!Ptx.AgreesWithClang) {
    Finding.withoutFix(At, "no automatic fix: warpfix reads the operand "
                           "references of this template differently from "
                           "clang, so it cannot edit it safely");
    return;
  }
  if (I.Guard) {
    // A lane whose guard is false does not execute the instruction, and a
    // .sync instruction waits for every lane its mask names: the mask would
    // have to be the ballot of a predicate that only the PTX computes.
    llvm::StringRef Guard = Ptx.Asm->getAsmString()->getString().slice(
        I.Guard->Begin, I.Guard->End);
    Finding
        .withoutFix(Ptx.locationOf(I.Guard->Begin, Ctx),
                    ("no automatic fix: the instruction is guarded by '" +
                     Guard +
                     "', a predicate computed in the PTX, so which lanes "
                     "execute it is unknown")
                        .str())
        .note(At, Candidate("<mask>") +
                      " where <mask> names the lanes that reach it and whose "
                      "guard holds");
    return;
  }

  // Membership is computed for the statement; a branch inside its PTX can
  // take lanes around the instruction.
  for (const ptx::Instruction &Other : Ptx.Template.Instructions) {
    llvm::StringRef Opcode = llvm::StringRef(Other.OpcodeText).split('.').first;
    if (llvm::is_contained({"bra", "brx", "ret", "exit", "call"}, Opcode)) {
      Finding
          .withoutFix(Ptx.locationOf(Other.Opcode.Begin, Ctx),
                      ("no automatic fix: the PTX of this statement has a '" +
                       Opcode +
                       "', so the lanes that execute the instruction need not "
                       "be those that reach the statement")
                          .str())
          .note(At, Candidate("<mask>") +
                        " where <mask> names the lanes that execute it");
      return;
    }
  }

  Membership Lanes = context().analyses(Ctx).Members.at(Ptx.Asm);
  if (Lanes.Result == Membership::AllLanes) {
    if (!editTemplate(Ptx, ptx::toSync(I, FullMaskImmediate), Finding, Ctx)) {
      Finding.withoutFix(At, "no automatic fix: the instruction is spelled "
                             "with escape sequences, so the edit cannot be "
                             "placed exactly")
          .note(At, Candidate(FullMaskImmediate));
      return;
    }
    explainMask(Finding, Lanes, At, "this statement");
    return;
  }

  bool Fallback = Lanes.Result == Membership::Unknown &&
                  context().Options.Fallback == MaskFallback::ActiveMask;
  if (Lanes.Result == Membership::Unknown && !Fallback) {
    withoutFixFor(Finding, Lanes)
        .note(At, Candidate("<mask>") +
                      " where <mask> names the lanes that reach this "
                      "statement");
    return;
  }
  // The mask is a value of the C++ code: it enters as a new input operand.
  std::string Why;
  std::string Value =
      Fallback ? ("__activemask() " + ReviewMaskMarker).str() : "<mask>";
  std::optional<MaskOperand> Operand = maskOperand(Ptx, I, Value, Ctx, Why);
  if (!Operand) {
    Finding.withoutFix(At, "no automatic fix: the mask must be passed in as "
                           "a new input operand, but " + Why)
        .note(At, Candidate("<mask>") +
                      (Fallback ? " where <mask> is an input operand holding "
                                  "__activemask()"
                                : " where <mask> is an input operand holding "
                                  "a ballot of the branch conditions, taken "
                                  "before the branch"));
    return;
  }
  if (!Fallback) {
    std::optional<std::string> Mask =
        emitMask(Lanes, At, Finding, maskStyle(), Ctx);
    if (!Mask)
      return;
    Operand = maskOperand(Ptx, I, *Mask, Ctx, Why);
  }
  if (!editTemplate(Ptx, ptx::toSync(I, Operand->Reference), Finding, Ctx)) {
    Finding.withoutFix(At, "no automatic fix: the instruction is spelled "
                           "with escape sequences, so the edit cannot be "
                           "placed exactly");
    return;
  }
  Finding.insertBefore(
      SM.getComposedLoc(SM.getFileID(Ptx.Asm->getAsmLoc()),
                        Operand->Insert.Offset),
      Operand->Insert.Text);
  if (Fallback) {
    noteActiveMaskFallback(Finding, Lanes, At, "this statement", "instruction");
    return;
  }
  explainMask(Finding, Lanes, At, "this statement");
  Finding.note(At, "the mask enters the PTX as the new input operand " +
                       Operand->Reference +
                       ", after the existing operands, whose numbers do not "
                       "change");
}

void WarpLegacyPtxCheck::onEndOfTranslationUnit() {
  // Code that `#if __CUDA_ARCH__` hid from this parse cannot be analysed,
  // but it is not passed over either: its string literals are read as PTX
  // and each legacy instruction is reported as not analysed.
  const SourceManager &SM = context().Sink.sourceManager();
  for (const SkippedCode::Region &Region : context().Skipped.regions())
    reportLexically(Region, /*Parsed=*/false, SM);
  // So is code that clang's recovery may have dropped, outside the asm
  // statements that the syntax tree holds.
  for (const SkippedCode::Region &Region : context().Skipped.dropped())
    reportLexically(Region, /*Parsed=*/true, SM);
}

void WarpLegacyPtxCheck::reportLexically(const SkippedCode::Region &Region,
                                         bool Parsed,
                                         const SourceManager &SM) {
  auto Within = [&](SourceLocation Loc, SourceRange Range) {
    return !SM.isBeforeInTranslationUnit(Loc, Range.getBegin()) &&
           !SM.isBeforeInTranslationUnit(Range.getEnd(), Loc);
  };
  // A literal the AST holds was analysed; one in code that `#if` hid was
  // reported with that code; one in a directive is only code where a macro
  // expands, which the AST holds.
  auto Analysed = [&](SourceLocation Loc) {
    return llvm::any_of(AsmInAst,
                        [&](SourceRange R) { return Within(Loc, R); }) ||
           context().Skipped.hides(Loc, SM);
  };
  FileID File = SM.getFileID(Region.Range.getBegin());
  llvm::StringRef Buffer = SM.getBufferData(File);
  // Runs of adjacent literals, which the compiler would concatenate. No
  // compiler evaluated them, so each escape sequence is read as blanks of
  // its own length: offsets in the text stay offsets in the file.
  std::string Text;
  std::vector<std::pair<unsigned, unsigned>> Pieces; // text, file offsets
  auto Flush = [&] {
    std::optional<ptx::Template> T = ptx::parse(Text, ptx::Syntax::Extended);
    if (!T)
      T = ptx::parse(Text, ptx::Syntax::Basic);
    for (const ptx::Instruction &I : T ? T->Instructions
                                       : std::vector<ptx::Instruction>()) {
      std::optional<ptx::LegacyForm> Form = ptx::legacyForm(I);
      if (!Form)
        continue;
      auto Piece = std::prev(
          llvm::upper_bound(Pieces, std::make_pair(I.Opcode.Begin, ~0u)));
      SourceLocation Loc = SM.getComposedLoc(
          File, Piece->second + (I.Opcode.Begin - Piece->first));
      // Dropped ranges of two errors may overlap.
      if (Parsed && !LexicallyReported.insert(Loc.getRawEncoding()).second)
        continue;
      report(Loc, message(I, *Form))
          .withoutFix(Parsed ? Loc : Region.Range.getBegin(),
                      "not analysed: " + Region.Reason);
    }
    Text.clear();
    Pieces.clear();
  };
  bool InDirective = false;
  for (const Token &Tok : SkippedCode::rawTokens(Region, SM)) {
    if (Tok.isAtStartOfLine())
      InDirective = Parsed && Tok.is(tok::hash);
    if (!Tok.is(tok::string_literal) || InDirective ||
        (Parsed && Analysed(Tok.getLocation()))) {
      Flush();
      continue;
    }
    llvm::StringRef Spelling(Buffer.data() +
                                 SM.getFileOffset(Tok.getLocation()),
                             Tok.getLength());
    size_t Quote = Spelling.find('"');
    llvm::StringRef Body = Spelling.drop_front(Quote + 1).drop_back();
    Pieces.push_back({unsigned(Text.size()),
                      SM.getFileOffset(Tok.getLocation()) + unsigned(Quote) +
                          1});
    for (size_t K = 0; K < Body.size(); ++K) {
      bool Escape = Body[K] == '\\' && K + 1 < Body.size();
      Text += Escape ? "  " : std::string(1, Body[K]);
      K += Escape;
    }
  }
  Flush();
}

} // namespace warpfix
