#include "checks/warp-activemask-mask.h"
#include "checks/analysis/MaskFix.h"
#include "checks/analysis/SyncPrimitives.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace warpfix {

void WarpActivemaskMaskCheck::registerMatchers(MatchFinder &Finder) {
  Finder.addMatcher(syncPrimitiveCall(), this);
  // Seed 000, listing 14: `assert(__activemask() == FULL_MASK)`.
  auto ActiveMask = callExpr(callee(functionDecl(hasName("__activemask"))));
  Finder.addMatcher(
      binaryOperator(unless(isExpansionInSystemHeader()),
                     hasAnyOperatorName("==", "!="),
                     hasEitherOperand(
                         ignoringParenImpCasts(ActiveMask.bind("active"))))
          .bind("compare"),
      this);
}

void WarpActivemaskMaskCheck::run(const MatchFinder::MatchResult &Result) {
  if (const auto *Compare = Result.Nodes.getNodeAs<BinaryOperator>("compare"))
    checkComparison(*Compare, *Result.Nodes.getNodeAs<CallExpr>("active"),
                    *Result.Context);
  else
    checkMask(*Result.Nodes.getNodeAs<CallExpr>("call"), *Result.Context);
}

void WarpActivemaskMaskCheck::checkComparison(const BinaryOperator &Compare,
                                              const CallExpr &ActiveMask,
                                              ASTContext &Ctx) {
  const Expr *Other = Compare.getLHS()->IgnoreParenImpCasts() == &ActiveMask
                          ? Compare.getRHS()
                          : Compare.getLHS();
  if (!isFullMaskConstant(Other, Ctx))
    return;
  report(ActiveMask.getBeginLoc(),
         "comparing __activemask() with the full mask assumes the warp runs in "
         "lockstep, which independent thread scheduling does not guarantee, "
         "not even right after __syncwarp() (seed 000, listing 14)")
      .note(Compare.getOperatorLoc(),
            "no automatic fix: decide which lanes must take part and use a "
            "*_sync primitive with that mask instead of checking convergence");
}

void WarpActivemaskMaskCheck::checkMask(const CallExpr &Call,
                                        ASTContext &Ctx) {
  const Expr *Mask = memberMaskArgument(Call, Ctx);
  llvm::StringRef Primitive = primitiveName(Call);
  // Finding the lanes that happen to be here is exactly what the
  // opportunistic pattern asks of __match_*_sync (seed 000, atomicAggInc).
  if (!Mask || Primitive.starts_with("__match_"))
    return;
  Analyses &Shared = context().analyses(Ctx);
  const SourceManager &SM = Ctx.getSourceManager();
  for (const MaskOrigin &Origin : maskOrigins(Mask, Ctx)) {
    if (!isActiveMaskCall(Origin.Origin, Ctx))
      continue;
    Membership AtOrigin = Shared.Members.at(Origin.Origin);
    SourceLocation Taken = SM.getExpansionLoc(Origin.Origin->getBeginLoc());
    // Captured once where every lane is present and passed on: the warp was
    // converged when it was taken.
    if (Origin.ThroughVariable && AtOrigin.Result == Membership::AllLanes)
      continue;
    FindingBuilder Finding = report(
        SM.getExpansionLoc(Mask->getBeginLoc()),
        ("__activemask() is the member mask of '" + Primitive +
         "': it says which lanes happen to be converged here, not which lanes "
         "should take part (seed 000, listing 5)")
            .str());
    if (Origin.ThroughVariable)
      Finding.note(Taken, "the mask is taken here");
    if (AtOrigin.Result == Membership::Unknown) {
      Finding.withoutFix(AtOrigin.ReasonLoc,
                         "no automatic fix: " + AtOrigin.Reason);
      continue;
    }
    if (Origin.ThroughVariable &&
        !sameLanes(AtOrigin, Shared.Members.at(&Call))) {
      Finding.withoutFix(Call.getBeginLoc(),
                         "no automatic fix: the mask is used under other "
                         "branches than the ones where it is taken");
      continue;
    }
    CharSourceRange Range = Lexer::makeFileCharRange(
        CharSourceRange::getTokenRange(
            Origin.Origin->IgnoreParenImpCasts()->getSourceRange()),
        SM, Ctx.getLangOpts());
    if (Range.isInvalid()) {
      Finding.withoutFix(Taken,
                         "no automatic fix: the __activemask() call is "
                         "assembled by a macro");
      continue;
    }
    std::optional<std::string> Lanes =
        emitMask(AtOrigin, Taken, Finding,
                 maskStyle(), Ctx);
    if (!Lanes)
      continue;
    Finding.replace(Range, *Lanes);
    explainMask(Finding, AtOrigin, Taken);
  }
}

} // namespace warpfix
