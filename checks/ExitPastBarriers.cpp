#include "checks/ExitPastBarriers.h"
#include "checks/MaskFix.h"
#include "checks/StatementText.h"
#include "checks/analysis/Analyses.h"
#include "checks/analysis/Exits.h"
#include "checks/analysis/LocalDefinitions.h"
#include "checks/analysis/Membership.h"
#include "checks/analysis/SyncPrimitives.h"
#include "checks/analysis/ThreadCoupling.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

using namespace clang;

namespace warpfix {
namespace {

/// `if (C) return;` or `if (C) { return; }`, and nothing else in the if.
const IfStmt *asEarlyReturn(const Stmt *S) {
  const auto *If = dyn_cast<IfStmt>(S);
  if (!If || If->getElse() || If->getInit() || If->getConditionVariable() ||
      If->isConstexpr() || If->isConsteval())
    return nullptr;
  const Stmt *Then = If->getThen();
  if (const auto *Block = dyn_cast<CompoundStmt>(Then))
    Then = Block->size() == 1 ? Block->body_front() : nullptr;
  const auto *Return = dyn_cast_or_null<ReturnStmt>(Then);
  return Return && !Return->getRetValue() ? If : nullptr;
}

/// Whether E may be evaluated by threads that would not have: it reads no
/// memory, calls nothing but the toolkit's pure functions (`threadIdx` is
/// read through one), and changes nothing.
bool harmlessValue(const Expr *E, ASTContext &Ctx) {
  if (E->HasSideEffects(Ctx, /*IncludePossibleEffects=*/false) ||
      !readsOnlyThreadPrivateValues(E, Ctx))
    return false;
  class Unsafe : public RecursiveASTVisitor<Unsafe> {
  public:
    Unsafe(const SourceManager &SM, ASTContext &Ctx) : SM(SM), Ctx(Ctx) {}
    bool Impure = false;
    // A division by zero, or a shift past the width, in a thread that
    // never computed it before would be undefined behaviour the compiler
    // may build on: only constant divisors and shift counts.
    bool VisitBinaryOperator(BinaryOperator *Op) {
      BinaryOperatorKind Kind = Op->getOpcode();
      if (Kind == BO_Div || Kind == BO_Rem || Kind == BO_Shl || Kind == BO_Shr)
        Impure |= !Op->getRHS()->isValueDependent() &&
                  !Op->getRHS()->isIntegerConstantExpr(Ctx);
      return !Impure;
    }
    // threadIdx.x and its kin are read through a toolkit function.
    bool TraversePseudoObjectExpr(PseudoObjectExpr *Property) {
      Impure |=
          !isa<MSPropertyRefExpr>(Property->getSyntacticForm()->IgnoreParens());
      return !Impure;
    }
    bool VisitCallExpr(CallExpr *Call) {
      Impure |= !isPureToolkitCall(*Call, SM);
      return !Impure;
    }
    const SourceManager &SM;
    ASTContext &Ctx;
  };
  Unsafe Called(Ctx.getSourceManager(), Ctx);
  Called.TraverseStmt(const_cast<Expr *>(E));
  return !Called.Impure;
}

/// Whether the threads that left early may run Declaration too, so that
/// it can stay outside the statements they skip: it reads no memory,
/// calls nothing but the toolkit's pure functions, and changes nothing.
bool harmlessForLeavers(const DeclStmt &Declaration, ASTContext &Ctx) {
  for (const Decl *D : Declaration.decls()) {
    const auto *Var = dyn_cast<VarDecl>(D);
    if (!Var)
      continue; // a type or an alias runs no code
    const Expr *Init = Var->getInit();
    if (!Var->hasLocalStorage()) {
      if (Init)
        return false;
      continue;
    }
    if (Var->getType()->isReferenceType() || Var->needsDestruction(Ctx))
      return false;
    if (!Init)
      continue;
    if (const auto *Construct =
            dyn_cast<CXXConstructExpr>(Init->IgnoreImplicit())) {
      if (Construct->getNumArgs() == 0 &&
          Construct->getConstructor()->isTrivial())
        continue;
      return false;
    }
    if (!Var->getType()->isScalarType() || !harmlessValue(Init, Ctx))
      return false;
  }
  return true;
}

/// `T v = E;`, one scalar variable whose type is written out and that is
/// not const: it can become `T v;` and `v = E;`, the assignment among the
/// statements that the threads which left skip.
bool splittable(const DeclStmt &Declaration, ASTContext &Ctx) {
  const auto *Var = Declaration.isSingleDecl()
                        ? dyn_cast<VarDecl>(Declaration.getSingleDecl())
                        : nullptr;
  return Var && Var->hasLocalStorage() && Var->getInit() &&
         Var->getInitStyle() == VarDecl::CInit && !Var->isConstexpr() &&
         Var->getType()->isScalarType() &&
         !Var->getType().getCanonicalType().isConstQualified() &&
         Var->getTypeSourceInfo() &&
         !Var->getTypeSourceInfo()->getType()->getContainedDeducedType() &&
         !Var->needsDestruction(Ctx) && Var->getIdentifier();
}

/// The variables that each statement names.
llvm::DenseSet<const Decl *> namedIn(const Stmt *S) {
  class Names : public RecursiveASTVisitor<Names> {
  public:
    llvm::DenseSet<const Decl *> Found;
    bool shouldVisitImplicitCode() const { return true; }
    bool VisitDeclRefExpr(DeclRefExpr *Ref) {
      Found.insert(Ref->getDecl());
      return true;
    }
  };
  Names N;
  N.TraverseStmt(const_cast<Stmt *>(S));
  return std::move(N.Found);
}

} // namespace

BarrierMove moveExitPastBarriers(const FunctionDecl &Kernel,
                                 const Stmt &Barrier, Analyses &Shared,
                                 FindingBuilder &Finding, ASTContext &Ctx) {
  BarrierMove NotThisShape{BarrierMove::OtherShape, "", SourceLocation()};
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Kernel.getBody());
  if (!Body || !isPlainSyncthreads(&Barrier))
    return NotThisShape;
  llvm::ArrayRef<Stmt *> Children(Body->body_begin(), Body->body_end());
  const auto *BarrierAt = llvm::find(Children, &Barrier);
  if (BarrierAt == Children.end())
    return NotThisShape;
  // The statement before the barrier by which threads leave last.
  ExitingFunctions &Exiting = Shared.Lanes.exitingFunctions();
  Stmt *const *ExitAt = BarrierAt;
  while (ExitAt != Children.begin()) {
    --ExitAt;
    if (!exitsOf(Ctx, *ExitAt, true, &Exiting).empty())
      break;
  }
  const IfStmt *Exit = ExitAt != BarrierAt ? asEarlyReturn(*ExitAt) : nullptr;
  if (!Exit)
    return NotThisShape;
  SourceLocation ExitLoc = Exit->getBeginLoc();
  if (std::optional<BarrierMove> Unproven =
          unprovenReach(Kernel, Exit, "the early return", Shared, Ctx))
    return *Unproven;
  // The threads that return destroy what the body declared before the
  // return; moved past the barriers, they would do it after them.
  for (const Stmt *Earlier : llvm::make_range(Children.begin(), ExitAt))
    if (const auto *Declaration = dyn_cast<DeclStmt>(Earlier))
      for (const Decl *D : Declaration->decls())
        if (const auto *Var = dyn_cast<VarDecl>(D);
            Var && Var->needsDestruction(Ctx))
          return refusal("'" + Var->getNameAsString() +
                             "', declared before the early return, has a "
                             "destructor, which the threads that return "
                             "would run after the barriers instead of "
                             "before them",
                         Var->getLocation());
  if (bodyContainsGoto(Ctx, Kernel))
    return refusal("the kernel holds a goto, which could jump past the "
                   "moved return or into the statements it guards",
                   ExitLoc);

  // The barriers moved past: every `__syncthreads();` of the body after the
  // exit. The threads that left take part in each, and return after the
  // last.
  std::vector<size_t> Barriers;
  size_t First = ExitAt - Children.begin() + 1;
  for (size_t I = First; I < Children.size(); ++I)
    if (isPlainSyncthreads(Children[I]))
      Barriers.push_back(I);
  size_t Last = Barriers.back();
  llvm::DenseSet<size_t> IsBarrier(Barriers.begin(), Barriers.end());
  for (size_t I = First; I < Last; ++I) {
    if (IsBarrier.contains(I))
      continue;
    const Stmt *S = Children[I];
    std::vector<const Stmt *> Exits = exitsOf(Ctx, S, true, &Exiting);
    if (!Exits.empty())
      return refusal(std::string("the statements between the early return "
                                 "and the last barrier hold ") +
                         describeExit(Exits.front()) +
                         ", which would still take threads away from the "
                         "barriers after it",
                     Exits.front()->getBeginLoc());
    std::optional<ThreadCoupling> Coupling = threadCouplingIn(S, Ctx);
    if (Coupling)
      return refusal("the statements between the early return and the last "
                     "barrier hold " +
                         Coupling->What +
                         ", which waits for or tells apart other threads: "
                         "the threads that returned would be waiting at a "
                         "barrier instead of having exited",
                     Coupling->Where);
  }

  // The statements between the exit and the last barrier are skipped by the
  // threads that left, in stretches between the barriers. A declaration that
  // later code names stands outside them, and those threads run it too: it
  // must be harmless to them.
  llvm::DenseMap<const Decl *, llvm::SmallVector<size_t, 4>> NamedAt;
  for (size_t I = First; I < Children.size(); ++I)
    for (const Decl *D : namedIn(Children[I]))
      NamedAt[D].push_back(I);
  std::shared_ptr<const LocalDefinitions> Locals =
      localDefinitionsOf(Ctx, Body);
  // Where each statement goes: inside the skipped stretches, kept outside
  // them (the threads that left run it too), or, for a declaration, split
  // into its variable outside and its initial value assigned inside.
  enum Place { Inside, Kept, Split };
  std::vector<Place> Where(Children.size(), Inside);
  for (size_t I : Barriers)
    Where[I] = Kept;
  llvm::DenseSet<const Decl *> SplitVariables;
  auto StretchOf = [&](size_t I) {
    size_t From = I, To = I;
    while (From > First && Where[From - 1] == Inside)
      --From;
    while (To + 1 < Last && Where[To + 1] == Inside)
      ++To;
    return std::pair(From, To);
  };
  auto NamesSplit = [&](const Stmt *S) {
    return llvm::any_of(
        namedIn(S), [&](const Decl *D) { return SplitVariables.contains(D); });
  };
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (size_t I = First; I < Last; ++I) {
      const auto *Declaration = dyn_cast<DeclStmt>(Children[I]);
      if (!Declaration || Where[I] == Split)
        continue;
      if (Where[I] == Inside) {
        auto [From, To] = StretchOf(I);
        bool NamedOutside = false;
        for (const Decl *D : Declaration->decls()) {
          // A type is named by more than references. A variable whose
          // address is taken, or whose destructor runs code, would end
          // earlier inside the stretch's braces.
          const auto *Var = dyn_cast<VarDecl>(D);
          NamedOutside |= !Var || Locals->Escaped.contains(Var) ||
                          Var->needsDestruction(Ctx);
          for (size_t Use : NamedAt.lookup(D))
            NamedOutside |= Use < From || Use > To;
        }
        if (!NamedOutside)
          continue;
      }
      // A kept declaration must not read what a split one no longer gives
      // the threads that left.
      Place Next =
          harmlessForLeavers(*Declaration, Ctx) && !NamesSplit(Declaration)
              ? Kept
              : Split;
      if (Next == Where[I])
        continue;
      if (Next == Split && !splittable(*Declaration, Ctx))
        return refusal("a declaration between the early return and the last "
                       "barrier is used outside the statements that the "
                       "threads which returned would skip, its initial "
                       "value reads memory or calls a function, which those "
                       "threads must not do, and it cannot be split into a "
                       "declaration and an assignment (it is const, auto, "
                       "or not of one scalar variable)",
                       Declaration->getBeginLoc());
      if (Next == Split)
        SplitVariables.insert(Declaration->getSingleDecl());
      Where[I] = Next;
      Changed = true;
    }
  }

  // The text: every boundary on a line of its own.
  const SourceManager &SM = Ctx.getSourceManager();
  if (!ExitLoc.isFileID() || !Exit->getEndLoc().isFileID())
    return refusal("the early return is written by a macro", ExitLoc);
  FileID File = SM.getFileID(ExitLoc);
  FileText Text(SM, File);
  std::optional<StatementText> ExitText = textOf(Exit, Text, File, Ctx);
  CharSourceRange Condition = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(Exit->getCond()->getSourceRange()), SM,
      Ctx.getLangOpts());
  // A class's explicit conversion to bool is contextual only: the flag's
  // initialisation would not compile.
  const Expr *Tested = Exit->getCond()->IgnoreParenImpCasts();
  if (!ExitText || Condition.isInvalid() ||
      !Tested->getType()->isScalarType() || isa<CXXMemberCallExpr>(Tested))
    return refusal("the early return's condition is not plain text of this "
                   "file",
                   ExitLoc);
  std::vector<std::optional<StatementText>> Texts(Children.size());
  for (size_t I = First; I <= Last; ++I) {
    Texts[I] = textOf(Children[I], Text, File, Ctx);
    if (!Texts[I])
      return refusal("a statement between the early return and the last "
                     "barrier is written by a macro, or in another file",
                     Children[I]->getBeginLoc());
  }
  for (size_t I : Barriers)
    if (!Text.startsLine(Texts[I]->Begin))
      return refusal("a barrier after the early return shares its line with "
                     "other code",
                     Children[I]->getBeginLoc());
  if (directiveBetween(Text, ExitText->Begin, Texts[Last]->End,
                       Directives::AllButPragma))
    return refusal("conditional compilation (#if, #else) or a #define "
                   "stands between the early return and the last barrier",
                   ExitLoc);
  unsigned BarrierLine = Text.lineStart(Texts[Barriers.front()]->Begin);
  std::string Indent =
      Text.slice(BarrierLine, Texts[Barriers.front()]->Begin).str();
  std::string BraceIndent =
      Text.line(Text.lineStart(Text.offsetOf(Body->getLBracLoc())))
          .take_while([](char C) { return C == ' ' || C == '\t'; })
          .str();
  std::string Step = llvm::StringRef(Indent).starts_with(BraceIndent) &&
                             Indent.size() > BraceIndent.size()
                         ? Indent.substr(BraceIndent.size())
                         : std::string("  ");
  std::string LineEnd = Text.lineEnding().str();
  std::string Flag = unusedName("returns_early", Ctx);

  struct Insertion {
    unsigned Offset;
    std::string Text;
  };
  std::vector<Insertion> Insertions;
  bool Skips = false;
  // A split declaration opens the stretch after it, with its assignment.
  bool Opened = false;
  std::vector<std::pair<CharSourceRange, std::string>> Replacements;
  for (size_t I = First; I < Last; ++I) {
    bool StartsStretch =
        Where[I] == Inside && (I == First || Where[I - 1] != Inside);
    if (!StartsStretch && Where[I] != Split)
      continue;
    unsigned Previous = I == First ? ExitText->End : Texts[I - 1]->End;
    if (Where[I] == Split) {
      const auto *Var =
          cast<VarDecl>(cast<DeclStmt>(Children[I])->getSingleDecl());
      unsigned Begin = Texts[I]->Begin, End = Texts[I]->End;
      SourceLocation NameEnd = Lexer::getLocForEndOfToken(
          Var->getLocation(), 0, SM, Ctx.getLangOpts());
      CharSourceRange Init = Lexer::makeFileCharRange(
          CharSourceRange::getTokenRange(Var->getInit()->getSourceRange()), SM,
          Ctx.getLangOpts());
      if (!Text.startsLine(Begin) || Text.lineStart(Begin) < Previous ||
          !Text.endsLine(End) ||
          Text.nextLineStart(End) > Texts[I + 1]->Begin ||
          !Var->getLocation().isFileID() || Init.isInvalid() ||
          Text.slice(Text.offsetOf(NameEnd), Text.offsetOf(Init.getBegin()))
                  .trim() != "=")
        return refusal("a declaration that would be split into a declaration "
                       "and an assignment shares its line with other code, "
                       "or is written by a macro",
                       Children[I]->getBeginLoc());
      std::string Replacement =
          Text.slice(Begin, Text.offsetOf(NameEnd)).str() + ";" + LineEnd +
          Indent + "if (!" + Flag + ") {" + LineEnd + Indent + Step +
          Var->getName().str() + " = " +
          Lexer::getSourceText(Init, SM, Ctx.getLangOpts()).str() + ";";
      Opened = Where[I + 1] == Inside && I + 1 < Last;
      if (!Opened)
        Replacement += LineEnd + Indent + "}";
      Replacements.push_back(
          {CharSourceRange::getCharRange(Text.at(Begin), Text.at(End)),
           Replacement});
      Skips = true;
      continue;
    }
    auto [From, To] = StretchOf(I);
    std::optional<unsigned> Start =
        firstLineOf(Children[From], Texts[From]->Begin, Text);
    unsigned End = Texts[To]->End;
    if (!Start || *Start < Previous || !Text.endsLine(End) ||
        Text.nextLineStart(End) > Texts[To + 1]->Begin)
      return refusal("the statements that the threads which returned would "
                     "skip share a line with other code, or with a comment "
                     "that a backslash continues",
                     Children[From]->getBeginLoc());
    llvm::StringRef Stretch = Text.slice(*Start, End);
    if (Stretch.contains("R\"") || Stretch.contains("\\\n") ||
        Stretch.contains("\\\r\n"))
      return refusal("the statements that the threads which returned would "
                     "skip hold a raw string or a continued line, which "
                     "indenting them would change",
                     Children[From]->getBeginLoc());
    std::string Open = Opened ? "" : Indent + "if (!" + Flag + ") {" + LineEnd;
    Opened = false;
    Insertions.push_back({*Start, Open});
    for (unsigned Line = *Start; Line < End; Line = Text.nextLineStart(Line))
      // A directive at the margin stays there.
      if (!Text.line(Line).trim().empty() && !Text.line(Line).starts_with("#"))
        Insertions.push_back({Line, Step});
    Insertions.push_back({Text.nextLineStart(End), Indent + "}" + LineEnd});
    Skips = true;
  }
  bool ReturnAfter = Last + 1 < Children.size();
  if (ReturnAfter) {
    if (!Text.endsLine(Texts[Last]->End))
      return refusal("the last barrier shares its line with other code, or "
                     "with a comment that a backslash continues",
                     Children[Last]->getBeginLoc());
    Insertions.push_back({Text.nextLineStart(Texts[Last]->End),
                          Indent + "if (" + Flag + ") return;" + LineEnd});
  }
  for (const Insertion &At : Insertions)
    if (!Text.beginsLogicalLine(At.Offset))
      return refusal("a line where the fix would write ends in a backslash, "
                     "which would take the new line into it",
                     Text.at(At.Offset));
  std::string ConditionText =
      Lexer::getSourceText(Condition, SM, Ctx.getLangOpts()).str();
  const auto *Comma =
      dyn_cast<BinaryOperator>(Exit->getCond()->IgnoreImplicit());
  if (Comma && Comma->getOpcode() == BO_Comma)
    ConditionText = "(" + ConditionText + ")";
  CharSourceRange ExitRange = CharSourceRange::getCharRange(
      Text.at(ExitText->Begin), Text.at(ExitText->End));
  if (Skips || ReturnAfter) {
    Finding.replace(ExitRange,
                    "const bool " + Flag + " = " + ConditionText + ";");
  } else if (harmlessValue(Exit->getCond(), Ctx) &&
             Text.startsLine(ExitText->Begin) && Text.endsLine(ExitText->End)) {
    // Nothing left to skip or to return from: the exit goes.
    Finding.replace(CharSourceRange::getCharRange(
                        Text.at(Text.lineStart(ExitText->Begin)),
                        Text.at(Text.nextLineStart(ExitText->End))),
                    "");
  } else {
    return refusal("the early return's condition has effects, and nothing "
                   "after it would use its value",
                   ExitLoc);
  }
  for (const auto &[Range, Replacement] : Replacements)
    Finding.replace(Range, Replacement);
  // Insertions at one offset, in the order made, as one edit.
  std::stable_sort(Insertions.begin(), Insertions.end(),
                   [](const Insertion &A, const Insertion &B) {
                     return A.Offset < B.Offset;
                   });
  for (size_t I = 0; I < Insertions.size();) {
    std::string Joined;
    size_t J = I;
    for (;
         J < Insertions.size() && Insertions[J].Offset == Insertions[I].Offset;
         ++J)
      Joined += Insertions[J].Text;
    Finding.insertBefore(Text.at(Insertions[I].Offset), Joined);
    I = J;
  }
  Finding.note(ExitLoc,
               "every thread of the block reaches this early return: the "
               "fix lets the threads that take it skip the statements up to "
               "the last __syncthreads() after it, take part in each "
               "barrier, and return after the last one");
  return BarrierMove{BarrierMove::Fixed, "", SourceLocation()};
}

} // namespace warpfix
