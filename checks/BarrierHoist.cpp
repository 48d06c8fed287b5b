#include "checks/BarrierHoist.h"
#include "checks/StatementText.h"
#include "checks/analysis/Analyses.h"
#include "checks/analysis/Exits.h"
#include "checks/analysis/Parents.h"
#include "checks/analysis/ThreadCoupling.h"

using namespace clang;

namespace warpfix {
namespace {

/// The edit that deletes Barrier's statement: its whole line where nothing
/// else is on it, the statement alone where a comment follows.
CharSourceRange deletionOf(const StatementText &Barrier, const FileText &Text) {
  unsigned Begin = Barrier.Begin, End = Barrier.End;
  if (Text.line(End).trim().empty())
    return CharSourceRange::getCharRange(Text.at(Text.lineStart(Begin)),
                                         Text.at(Text.nextLineStart(End)));
  while (Text.slice(End, End + 1) == " " || Text.slice(End, End + 1) == "\t")
    ++End;
  return CharSourceRange::getCharRange(Text.at(Begin), Text.at(End));
}

} // namespace

BarrierMove hoistBarrierOutOfArms(const FunctionDecl &Kernel,
                                  const Stmt &Barrier, Analyses &Shared,
                                  FindingBuilder &Finding, ASTContext &Ctx) {
  BarrierMove NotThisShape{BarrierMove::OtherShape, "", SourceLocation()};
  const auto *Arm = dyn_cast_or_null<CompoundStmt>(parentStmt(Ctx, &Barrier));
  const auto *If =
      Arm ? dyn_cast_or_null<IfStmt>(parentStmt(Ctx, Arm)) : nullptr;
  if (!isPlainSyncthreads(&Barrier) || !If || Arm->body_back() != &Barrier)
    return NotThisShape;
  const auto *Then = dyn_cast<CompoundStmt>(If->getThen());
  const auto *Else = dyn_cast_or_null<CompoundStmt>(If->getElse());
  if (!Then || !Else || Then->body_empty() || Else->body_empty() ||
      !isPlainSyncthreads(Then->body_back()) ||
      !isPlainSyncthreads(Else->body_back()))
    return NotThisShape;
  SourceLocation IfLoc = If->getBeginLoc();
  const auto *Block = dyn_cast_or_null<CompoundStmt>(parentStmt(Ctx, If));
  if (!Block)
    return refusal("the if is not a statement of a block (an else-if, or a "
                   "loop's only statement), so there is no line after it",
                   IfLoc);
  if (std::optional<BarrierMove> Unproven =
          unprovenReach(Kernel, If, "the if", Shared, Ctx))
    return *Unproven;
  // What the arms or the if declare is destroyed as each scope ends, after
  // the arm's barrier: the one barrier after the if would come after it.
  auto NeedsDestruction = [&](const Decl *D) {
    const auto *Var = dyn_cast_or_null<VarDecl>(D);
    return Var && Var->needsDestruction(Ctx);
  };
  std::vector<const Decl *> Declared;
  if (const auto *Init = dyn_cast_or_null<DeclStmt>(If->getInit()))
    Declared.insert(Declared.end(), Init->decl_begin(), Init->decl_end());
  Declared.push_back(If->getConditionVariable());
  for (const CompoundStmt *Body : {Then, Else})
    for (const Stmt *S : Body->body())
      if (const auto *Declaration = dyn_cast<DeclStmt>(S))
        Declared.insert(Declared.end(), Declaration->decl_begin(),
                        Declaration->decl_end());
  if (auto Destroyed = llvm::find_if(Declared, NeedsDestruction);
      Destroyed != Declared.end())
    return refusal("'" + cast<VarDecl>(*Destroyed)->getNameAsString() +
                       "' has a destructor, which runs after the arm's "
                       "barrier and would run before the barrier after the if",
                   (*Destroyed)->getLocation());
  // Each arm's threads must reach its barrier once, with no barrier of the
  // block before it that the other arm's threads would meet instead.
  ExitingFunctions &Exiting = Shared.Lanes.exitingFunctions();
  for (const CompoundStmt *Body : {Then, Else})
    for (const Stmt *S : Body->body()) {
      if (S == Body->body_back())
        break;
      std::vector<const Stmt *> Exits = exitsOf(Ctx, S, true, &Exiting);
      if (!Exits.empty())
        return refusal(std::string("an arm holds ") +
                           describeExit(Exits.front()) +
                           ", by which some of its threads would not reach "
                           "the barrier after the if",
                       Exits.front()->getBeginLoc());
      if (std::optional<ThreadCoupling> Other =
              threadCouplingIn(S, Ctx, CouplingKind::BlockBarriers))
        return refusal("an arm holds " + Other->What +
                           " before its last barrier, which may be, or "
                           "call, a barrier of the block that the other "
                           "arm's threads would not meet any more",
                       Other->Where);
    }

  const SourceManager &SM = Ctx.getSourceManager();
  if (!IfLoc.isFileID())
    return refusal("the if is written by a macro", IfLoc);
  FileID File = SM.getFileID(IfLoc);
  FileText Text(SM, File);
  std::optional<StatementText> IfText = textOf(If, Text, File, Ctx);
  std::optional<StatementText> ThenBarrier =
      textOf(Then->body_back(), Text, File, Ctx);
  std::optional<StatementText> ElseBarrier =
      textOf(Else->body_back(), Text, File, Ctx);
  if (!IfText || !ThenBarrier || !ElseBarrier)
    return refusal("the if or its barriers are written by a macro", IfLoc);
  unsigned After = Text.nextLineStart(IfText->End);
  if (!Text.startsLine(IfText->Begin) || !Text.endsLine(IfText->End) ||
      !Text.beginsLogicalLine(After))
    return refusal("the if shares its first or last line with other code, or "
                   "with a comment that a backslash continues",
                   IfLoc);
  for (const StatementText *Arm : {&*ThenBarrier, &*ElseBarrier})
    if (!Text.startsLine(Arm->Begin) || !Text.endsLine(Arm->End))
      return refusal("a barrier at the end of an arm shares its line with "
                     "other code",
                     Text.at(Arm->Begin));
  if (directiveBetween(Text, IfText->Begin, IfText->End,
                       Directives::AllButPragma))
    return refusal("conditional compilation (#if, #else) or a #define stands "
                   "in the if",
                   IfLoc);
  std::string Indent =
      Text.slice(Text.lineStart(IfText->Begin), IfText->Begin).str();
  Finding.replace(deletionOf(*ThenBarrier, Text), "");
  Finding.replace(deletionOf(*ElseBarrier, Text), "");
  Finding.insertBefore(Text.at(After),
                       Indent + "__syncthreads();" + Text.lineEnding().str());
  Finding.note(IfLoc, "every thread of the block reaches this if, and both "
                      "arms end at a __syncthreads(): the fix puts one "
                      "after the if instead, where every thread arrives "
                      "right after its arm, as it did at the arm's own");
  return BarrierMove{BarrierMove::Fixed, "", SourceLocation()};
}

} // namespace warpfix
