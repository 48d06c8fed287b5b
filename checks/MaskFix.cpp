#include "checks/MaskFix.h"
#include "checks/analysis/FullMaskMacros.h"
#include "clang/AST/Attr.h"
#include "clang/Basic/CharInfo.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringSet.h"

using namespace clang;

namespace warpfix {

std::optional<std::string> fullMaskSpellingProblem(llvm::StringRef Option,
                                                   llvm::StringRef Value) {
  if (isValidAsciiIdentifier(Value))
    return std::nullopt;
  std::optional<uint64_t> Number = integerLiteralValue(Value);
  if (!Number)
    return (Option +
            " must be an integer literal or the name of a macro, "
            "not '" +
            Value + "'")
        .str();
  if (*Number != 0xffffffff)
    return (Option + " '" + Value + "' is " + llvm::Twine(*Number) +
            ", not the full mask 0xffffffff")
        .str();
  return std::nullopt;
}
namespace {

std::optional<std::string> sourceText(const Expr *E, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange Range = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(E->getSourceRange()), SM,
      Ctx.getLangOpts());
  if (Range.isInvalid())
    return std::nullopt;
  bool Invalid = false;
  llvm::StringRef Text = Lexer::getSourceText(Range, SM, Ctx.getLangOpts(),
                                              &Invalid);
  if (Invalid || Text.empty())
    return std::nullopt;
  return Text.str();
}

/// Whether Condition, passed as the `int` predicate of a ballot, is nonzero
/// exactly where it is true: a bool, or an integer of at most 32 bits. A
/// float (0.5), a 64-bit integer (1ull << 32) or a pointer is not, and a
/// comma expression would be read as more arguments.
bool keepsTruthAsInt(const Expr *Condition, ASTContext &Ctx) {
  const auto *Comma = dyn_cast<BinaryOperator>(Condition->IgnoreImplicit());
  if (Comma && Comma->getOpcode() == BO_Comma)
    return false;
  QualType Type = Condition->IgnoreImpCasts()->getType();
  if (Type->isBooleanType())
    return true;
  return (Type->isIntegerType() || Type->isEnumeralType()) &&
         !Type->isDependentType() && Ctx.getTypeSize(Type) <= 32;
}

/// The predicate of a ballot: the conjuncts in evaluation order, so that
/// short-circuiting guards later ones exactly as the original code did.
std::optional<std::string> predicate(const LaneCondition &C,
                                     ASTContext &Ctx) {
  std::string Text;
  bool Single = C.Conjuncts.size() == 1;
  for (const LaneCondition::Conjunct &J : C.Conjuncts) {
    std::optional<std::string> Part = sourceText(J.Condition, Ctx);
    if (!Part)
      return std::nullopt;
    if (!Text.empty())
      Text += " && ";
    if (J.Negated)
      Text += "!(" + *Part + ")";
    else if (!Single)
      Text += "(" + *Part + ")";
    else if (!keepsTruthAsInt(J.Condition, Ctx))
      Text += "!!(" + *Part + ")";
    else
      Text += *Part;
  }
  return Text;
}

/// The file range of E, or an invalid range where E is not written out whole
/// in one file.
CharSourceRange fileRangeOf(const Expr *E, ASTContext &Ctx) {
  return Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(E->getSourceRange()),
      Ctx.getSourceManager(), Ctx.getLangOpts());
}

std::string maskName(const LaneCondition &C, llvm::StringRef Prefix,
                     ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Loc = SM.getExpansionLoc(C.Anchor->getBeginLoc());
  unsigned Line = SM.getExpansionLineNumber(Loc);
  std::string Name = Prefix.str() + std::to_string(Line);
  // Two statements on one line that each need a ballot: the later ones are
  // told apart by their column.
  if (!lineLayoutOf(C.Anchor, Ctx))
    Name += "_" + std::to_string(SM.getExpansionColumnNumber(Loc));
  // The arms of an else-if chain each get a ballot before its first if:
  // each is named after its own test too.
  const auto *If = dyn_cast<IfStmt>(C.Anchor);
  const Expr *Innermost = C.Conjuncts.back().Condition;
  if (If && Innermost != If->getCond()) {
    SourceLocation Test = SM.getExpansionLoc(Innermost->getBeginLoc());
    unsigned TestLine = SM.getExpansionLineNumber(Test);
    Name += "_" + std::to_string(TestLine);
    if (TestLine == Line)
      Name += "_" + std::to_string(SM.getExpansionColumnNumber(Test));
    if (C.Conjuncts.back().Negated)
      Name += "_else";
  } else if (C.Conjuncts.back().Negated && (!If || If->getElse())) {
    // The two arms of one if/else, or of one `?:`, each get a ballot before
    // it.
    Name += "_else";
  }
  return unusedName(std::move(Name), Ctx);
}

/// A declaration on its own line, indented like the statement it precedes, in
/// the file's own line ending; inline when the statement shares its line.
std::optional<MaskInsertion> declarationBefore(const Stmt *Anchor,
                                               const std::string &Declaration,
                                               ASTContext &Ctx) {
  // A loop under `#pragma unroll` begins, for clang, at the pragma's
  // tokens: its line is the loop's, below the pragma's.
  while (const auto *Attributed = dyn_cast<AttributedStmt>(Anchor)) {
    if (!llvm::all_of(Attributed->getAttrs(),
                      [](const Attr *A) { return isa<LoopHintAttr>(A); }))
      break;
    Anchor = Attributed->getSubStmt();
  }
  SourceLocation Begin = Anchor->getBeginLoc();
  if (Begin.isMacroID())
    return std::nullopt;
  std::optional<LineLayout> Layout = lineLayoutOf(Anchor, Ctx);
  if (!Layout)
    return MaskInsertion{Begin, Declaration + " "};
  // A `#pragma unroll` on the lines right above belongs to the statement: a
  // declaration between them would leave the pragma without its loop.
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation LineStart = Begin.getLocWithOffset(-int(Layout->Indent.size()));
  auto [File, Offset] = SM.getDecomposedLoc(LineStart);
  llvm::StringRef Buffer = SM.getBufferData(File);
  while (Offset > 0) {
    size_t Previous = Buffer.rfind('\n', Offset - 1 == 0 ? 0 : Offset - 2);
    Previous = Previous == llvm::StringRef::npos ? 0 : Previous + 1;
    if (!Buffer.slice(Previous, Offset).ltrim().starts_with("#pragma"))
      break;
    Offset = Previous;
  }
  return MaskInsertion{SM.getComposedLoc(File, Offset),
                       Layout->Indent + Declaration + Layout->LineEnd};
}

/// For a branch whose condition reads memory that other lanes may write: the
/// condition computed once into a variable, the ballot of that variable, and
/// the branch testing the variable, so the lanes that take each arm are the
/// ones the ballot names. Only for a lone `if` (a condition of its own,
/// not an arm of an else-if chain or a nest of unbraced ifs) that starts its
/// line: the statements go after the line's indentation, so that a barrier
/// another fix puts before the branch (at the line's start) comes before the
/// condition's read. Nothing where that shape is not met.
struct ComputedOnce {
  std::vector<MaskInsertion> Edits;
  std::string Mask;     // the ballot of the lanes where the condition holds
};
std::optional<ComputedOnce> computeOnce(const LaneCondition &C,
                                        const std::string &Outer,
                                        llvm::StringRef Prefix,
                                        ASTContext &Ctx) {
  const auto *If = dyn_cast<IfStmt>(C.Anchor);
  // `const bool t = c;` copy-initializes: what only converts to bool in a
  // condition (std::nullptr_t, a class with an explicit operator bool) is
  // left alone.
  if (!If || C.Conjuncts.size() != 1 ||
      C.Conjuncts[0].Condition != If->getCond() ||
      !If->getCond()->IgnoreImpCasts()->getType()->isScalarType() ||
      If->getCond()->IgnoreImpCasts()->getType()->isNullPtrType())
    return std::nullopt;
  std::optional<LineLayout> Layout = lineLayoutOf(If, Ctx);
  CharSourceRange Range = fileRangeOf(If->getCond(), Ctx);
  std::optional<std::string> Text = sourceText(If->getCond(), Ctx);
  if (!Layout || Range.isInvalid() || !Text)
    return std::nullopt;
  // Both arms' masks come from the one ballot, so the edits of their fixes
  // are the same and are made once.
  LaneCondition Taken = C;
  Taken.Conjuncts[0].Negated = false;
  std::string Mask = maskName(Taken, Prefix, Ctx);
  std::string Holds = unusedName(Mask + "_taken", Ctx);
  const auto *Comma = dyn_cast<BinaryOperator>(If->getCond()->IgnoreImplicit());
  if (Comma && Comma->getOpcode() == BO_Comma)
    *Text = "(" + *Text + ")";
  std::string Separator = Layout->LineEnd + Layout->Indent;
  ComputedOnce Result;
  Result.Edits.push_back(
      {If->getBeginLoc(),
       "const bool " + Holds + " = " + *Text + ";" + Separator +
           "const unsigned " + Mask + " = __ballot_sync(" + Outer + ", " +
           Holds + ");" + Separator});
  Result.Edits.push_back({Range.getBegin(), Holds, Range});
  Result.Mask = std::move(Mask);
  return Result;
}

/// One step of indentation as the file has it: what the body's lines add
/// to the loop's, or two spaces.
std::string indentStep(const LineLayout &Outer, const LineLayout &Inner) {
  if (Inner.Indent.size() > Outer.Indent.size() &&
      llvm::StringRef(Inner.Indent).starts_with(Outer.Indent))
    return Inner.Indent.substr(Outer.Indent.size());
  return "  ";
}

/// Whether only spaces and tabs stand before Loc on its line.
bool startsItsLine(SourceLocation Loc, const SourceManager &SM) {
  auto [File, Offset] = SM.getDecomposedLoc(Loc);
  llvm::StringRef Buffer = SM.getBufferData(File);
  size_t LineStart = Buffer.rfind('\n', Offset == 0 ? 0 : Offset - 1);
  LineStart = (Offset == 0 || LineStart == llvm::StringRef::npos)
                  ? 0
                  : LineStart + 1;
  return Buffer.slice(LineStart, Offset).ltrim(" \t").empty();
}

/// The edits that make the lanes that enter C.Loop stay in it until none has
/// an iteration left: the condition moves into the body, where every lane
/// evaluates it and takes the ballot that is the mask of the body; the lanes
/// whose condition fails go on to the next iteration, and the loop ends when
/// no lane's holds. A for loop's increment moves to the end of the body.
/// loopRewriteRefusal() has checked that this is the same program.
std::optional<std::vector<MaskInsertion>>
rewriteLoop(const LaneCondition &C, const std::string &Outer,
            const std::string &Mask, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  const auto *For = dyn_cast<ForStmt>(C.Loop);
  const auto *Body = cast<CompoundStmt>(
      For ? For->getBody() : cast<WhileStmt>(C.Loop)->getBody());
  const Expr *Condition = C.Conjuncts.front().Condition;
  const Expr *Increment = For ? For->getInc() : nullptr;
  SourceLocation Open = Body->getLBracLoc(), Close = Body->getRBracLoc();
  CharSourceRange ConditionRange = fileRangeOf(Condition, Ctx);
  std::optional<std::string> ConditionText = sourceText(Condition, Ctx);
  CharSourceRange IncrementRange =
      Increment ? fileRangeOf(Increment, Ctx) : CharSourceRange();
  std::optional<std::string> IncrementText =
      Increment ? sourceText(Increment, Ctx) : std::nullopt;
  FileID File = SM.getFileID(SM.getExpansionLoc(C.Loop->getBeginLoc()));
  auto InFile = [&](SourceLocation Loc) {
    return Loc.isValid() && Loc.isFileID() && SM.getFileID(Loc) == File;
  };
  if (!ConditionText || !InFile(Open) || !InFile(Close) ||
      !InFile(ConditionRange.getBegin()) ||
      (Increment && (!IncrementText || !InFile(IncrementRange.getBegin()))))
    return std::nullopt;
  const auto *Comma = dyn_cast<BinaryOperator>(Condition->IgnoreImplicit());
  if (Comma && Comma->getOpcode() == BO_Comma)
    *ConditionText = "(" + *ConditionText + ")";

  std::string Iterating = unusedName(Mask + "_iterating", Ctx);
  std::optional<LineLayout> LoopLayout = lineLayoutOf(C.Loop, Ctx);
  std::optional<LineLayout> BodyLayout =
      Body->body_empty() ? std::nullopt
                         : lineLayoutOf(Body->body_front(), Ctx);
  std::string Between = " ", Nested = " ", BodyIndent;
  if (LoopLayout && BodyLayout) {
    BodyIndent = BodyLayout->Indent;
    Between = BodyLayout->LineEnd + BodyIndent;
    Nested = Between + indentStep(*LoopLayout, *BodyLayout);
  }
  std::vector<MaskInsertion> Edits;
  Edits.push_back({ConditionRange.getBegin(), For ? "" : "true",
                   ConditionRange});
  if (Increment)
    Edits.push_back({IncrementRange.getBegin(), "", IncrementRange});
  // After the brace's token, which may be the digraph `<%`.
  SourceLocation AfterOpen =
      Lexer::getLocForEndOfToken(Open, 0, SM, Ctx.getLangOpts());
  if (AfterOpen.isInvalid())
    return std::nullopt;
  Edits.push_back({AfterOpen,
                   Between + "const bool " + Iterating + " = " +
                       *ConditionText + ";" + Between + "const unsigned " +
                       Mask + " = __ballot_sync(" + Outer + ", " + Iterating +
                       ");" + Between + "if (" + Mask + " == 0)" + Nested +
                       "break;" + Between + "if (!" + Iterating + ")" +
                       Nested + "continue;"});
  if (Increment) {
    if (LoopLayout && BodyLayout && startsItsLine(Close, SM)) {
      unsigned Column = SM.getSpellingColumnNumber(Close);
      Edits.push_back({Close.getLocWithOffset(-int(Column - 1)),
                       BodyIndent + *IncrementText + ";" +
                           BodyLayout->LineEnd});
    } else {
      Edits.push_back({Close, *IncrementText + "; "});
    }
  }
  return Edits;
}

} // namespace

std::string unusedName(std::string Name, ASTContext &Ctx) {
  while (Ctx.Idents.find(Name) != Ctx.Idents.end())
    Name += "_";
  return Name;
}

bool insertStatementBefore(const Stmt *Anchor, const std::string &Statement,
                           FindingBuilder &Finding, ASTContext &Ctx) {
  std::optional<MaskInsertion> Insert =
      declarationBefore(Anchor, Statement, Ctx);
  if (!Insert)
    return false;
  Finding.insertBefore(Insert->At, Insert->Text);
  return true;
}

std::optional<LineLayout> lineLayoutOf(const Stmt *S, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Begin = S->getBeginLoc();
  if (Begin.isMacroID())
    return std::nullopt;
  auto [File, Offset] = SM.getDecomposedLoc(Begin);
  bool Invalid = false;
  llvm::StringRef Buffer = SM.getBufferData(File, &Invalid);
  if (Invalid)
    return std::nullopt;
  size_t LineStart = Offset == 0 ? 0 : Buffer.rfind('\n', Offset - 1);
  LineStart = (Offset == 0 || LineStart == llvm::StringRef::npos) ? 0
                                                                  : LineStart + 1;
  llvm::StringRef Indent = Buffer.slice(LineStart, Offset);
  if (!Indent.ltrim(" \t").empty())
    return std::nullopt;
  size_t LineEnd = Buffer.find('\n', Offset);
  bool CRLF = LineEnd != llvm::StringRef::npos && LineEnd > 0 &&
              Buffer[LineEnd - 1] == '\r';
  return LineLayout{Indent.str(), CRLF ? "\r\n" : "\n"};
}

void noteAssumptions(FindingBuilder &Finding, const DefaultAssumptions &A,
                     SourceLocation At) {
  if (A.Bits & ~OtherUnitsLaunchAlike)
    Finding.note(At, "this assumes blocks are made of whole warps "
                     "(blockDim.x a multiple of 32); pass "
                     "--assume-whole-warps=false if they are not");
  if (A.Bits & OtherUnitsLaunchAlike)
    Finding.note(A.OtherUnitsLoc, A.OtherUnits);
}

FindingBuilder &withoutFixFor(FindingBuilder &Finding, const Membership &M) {
  if (M.NoCallerSeen)
    return Finding.abstain(M.ReasonLoc, M.Reason);
  Finding.withoutFix(M.ReasonLoc, "no automatic fix: " + M.Reason);
  // A condition that would be warp-uniform in whole-warp blocks may be why:
  // say which launch switched the assumption off.
  if (!M.AssumptionOff.empty())
    Finding.note(M.AssumptionOffLoc, M.AssumptionOff);
  return Finding;
}

void noteActiveMaskFallback(FindingBuilder &Finding, const Membership &M,
                            SourceLocation At, llvm::StringRef What,
                            llvm::StringRef Form) {
  Finding
      .note(
          M.ReasonLoc,
          ("the lanes that reach " + What + " are unknown: " + M.Reason).str())
      .note(At, ("--mask-fallback=activemask: rewritten with __activemask(), "
                 "which is what the legacy " +
                 Form + " did; replace it with the lanes that should take part")
                    .str());
}

void explainMask(FindingBuilder &Finding, const Membership &M,
                 SourceLocation At, llvm::StringRef What) {
  if (M.Result == Membership::AllLanes && M.PartialWarps.empty())
    Finding.note(At, "every lane of the warp reaches " + What.str() +
                         ", so the full mask is exact");
  else if (M.Result == Membership::AllLanes) {
    Finding.note(At, "every lane that the warp has reaches " + What.str() +
                         "; in a block whose last warp is partial, the lanes "
                         "it lacks count as exited, which the full mask "
                         "allows");
    Finding.note(M.PartialWarpsLoc, M.PartialWarps);
  } else if (M.isPartial())
    Finding.note(At, "only some lanes reach " + What.str() +
                         "; the mask is a ballot of the branch conditions, "
                         "taken before the branch (Using CUDA Warp-Level "
                         "Primitives, listing 3)");
  else
    Finding.note(At, "the lanes that reach " + What.str() +
                         " are those for which the "
                         "branch conditions hold, all of a warp's lanes or none " +
                         InWholeWarpBlocksNotKnown.str() +
                         "; the mask is a ballot of the conditions, taken "
                         "before the branch (Using CUDA Warp-Level "
                         "Primitives, listing 3)");
  for (const LaneCondition &C : M.Conditions)
    if (C.Loop)
      Finding.note(C.Loop->getBeginLoc(),
                   "the lanes that ran an iteration of this loop were those "
                   "whose condition still held; the loop is rewritten so that "
                   "the lanes that enter it stay in it until none has an "
                   "iteration left, and each iteration's ballot of the "
                   "condition is the mask of the calls in its body; a lane "
                   "whose condition has failed does nothing more in the loop "
                   "but take part in the ballot");
  noteAssumptions(Finding, M.Assumed, At);
  if (!M.AssumptionOff.empty())
    Finding.note(M.AssumptionOffLoc, M.AssumptionOff);
}

std::string describeMask(const Membership &M, SourceLocation Use,
                         const MaskStyle &Style, ASTContext &Ctx) {
  if (M.Result == Membership::AllLanes)
    return Style.FullMasks.spellingAt(Use, Ctx.getSourceManager(),
                                      Style.FullMask);
  return "<mask>";
}

std::optional<PlannedMask> planMask(const Membership &M, SourceLocation Use,
                                    const MaskStyle &Style, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  PlannedMask Plan;
  if (M.Result == Membership::AllLanes) {
    Plan.Expression = Style.FullMasks.spellingAt(Use, SM, Style.FullMask);
    return Plan;
  }
  if (M.Result != Membership::Conditional)
    return std::nullopt;
  std::string Outer;
  // Two anchors on one line would get one name, and the inner ballot would
  // read its own, uninitialized, variable.
  llvm::StringSet<> Named;
  auto Distinct = [&](std::string Name, const LaneCondition &C) {
    if (Named.contains(Name))
      Name = unusedName(
          Name + "_" +
              std::to_string(SM.getExpansionColumnNumber(
                  SM.getExpansionLoc(C.Anchor->getBeginLoc()))),
          Ctx);
    Named.insert(Name);
    return Name;
  };
  for (size_t I = 0; I < M.Conditions.size(); ++I) {
    const LaneCondition &C = M.Conditions[I];
    if (I == 0)
      Outer = Style.FullMasks.spellingAt(C.Anchor->getBeginLoc(), SM,
                                         Style.FullMask);
    if (C.Loop) {
      std::string Name = Distinct(maskName(C, Style.NamePrefix, Ctx), C);
      std::optional<std::vector<MaskInsertion>> Edits =
          rewriteLoop(C, Outer, Name, Ctx);
      if (!Edits) {
        Plan.UnwritableAt = SM.getExpansionLoc(C.Loop->getBeginLoc());
        Plan.UnwritableWhy = UnwritableLoopNote.str();
        return Plan;
      }
      for (MaskInsertion &Edit : *Edits)
        Plan.Statements.push_back(std::move(Edit));
      Outer = Name;
      continue;
    }
    // Each lane tests the branch again after the ballot: only a condition
    // that must give the same answer then keeps the mask exact. Another is
    // computed once, where its shape allows.
    auto Unstable = llvm::find_if(C.Conjuncts, [&](const auto &J) {
      return !readsOnlyThreadPrivate(J.Condition, Ctx);
    });
    if (Unstable != C.Conjuncts.end()) {
      std::optional<ComputedOnce> Once =
          computeOnce(C, Outer, Style.NamePrefix, Ctx);
      if (!Once) {
        Plan.UnwritableAt = Unstable->Condition->getBeginLoc();
        Plan.UnwritableWhy = ConditionReadsMemoryNote.str();
        return Plan;
      }
      for (MaskInsertion &Edit : Once->Edits)
        Plan.Statements.push_back(std::move(Edit));
      Named.insert(Once->Mask);
      // The lanes of the outer mask where the condition fails.
      bool FromFullMask = I == 0;
      Outer = !C.Conjuncts[0].Negated ? Once->Mask
              : FromFullMask         ? "~" + Once->Mask
                                     : "(" + Outer + " & ~" + Once->Mask + ")";
      continue;
    }
    std::optional<std::string> Predicate = predicate(C, Ctx);
    std::string Name = Distinct(maskName(C, Style.NamePrefix, Ctx), C);
    std::optional<MaskInsertion> Insert =
        Predicate ? declarationBefore(C.Anchor,
                                      "const unsigned " + Name +
                                          " = __ballot_sync(" + Outer + ", " +
                                          *Predicate + ");",
                                      Ctx)
                  : std::nullopt;
    if (!Insert) {
      Plan.UnwritableAt = C.Anchor->getBeginLoc();
      Plan.UnwritableWhy = UnwritableBallotNote.str();
      return Plan;
    }
    Plan.Statements.push_back(*Insert);
    Outer = Name;
  }
  Plan.Expression = Outer;
  return Plan;
}

std::optional<std::string> emitMask(const Membership &M, SourceLocation Use,
                                    FindingBuilder &Finding,
                                    const MaskStyle &Style, ASTContext &Ctx) {
  std::optional<PlannedMask> Plan = planMask(M, Use, Style, Ctx);
  if (!Plan)
    return std::nullopt;
  if (Plan->UnwritableAt.isValid()) {
    Finding.withoutFix(Plan->UnwritableAt, Plan->UnwritableWhy);
    return std::nullopt;
  }
  for (const MaskInsertion &Insert : Plan->Statements)
    if (Insert.Replaces.isValid())
      Finding.replace(Insert.Replaces, Insert.Text);
    else
      Finding.insertBefore(Insert.At, Insert.Text);
  return Plan->Expression;
}

} // namespace warpfix
