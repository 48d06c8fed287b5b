#include "checks/warp-full-mask-divergent.h"
#include "checks/analysis/MaskFix.h"
#include "checks/analysis/MaskParameter.h"
#include "checks/analysis/SyncPrimitives.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace warpfix {
namespace {

/// Whether S contains a call of Primitive with a full mask.
bool callsWithFullMask(const Stmt *S, llvm::StringRef Primitive,
                       ASTContext &Ctx) {
  class Finder : public RecursiveASTVisitor<Finder> {
  public:
    Finder(llvm::StringRef Primitive, ASTContext &Ctx)
        : Primitive(Primitive), Ctx(Ctx) {}
    bool Found = false;
    bool VisitCallExpr(CallExpr *Call) {
      const Expr *Mask = memberMaskArgument(*Call, Ctx);
      if (Mask && primitiveName(*Call) == Primitive &&
          isFullMaskConstant(Mask, Ctx))
        Found = true;
      return !Found;
    }

  private:
    llvm::StringRef Primitive;
    ASTContext &Ctx;
  };
  Finder F(Primitive, Ctx);
  F.TraverseStmt(const_cast<Stmt *>(S));
  return F.Found;
}

/// Seed 000, listing 4: the same primitive with the full mask in both arms of
/// an if/else. Every lane reaches one of them, and on Volta and later the two
/// calls synchronise with each other.
bool otherArmMatches(const CallExpr &Call, const Membership &M,
                     ASTContext &Ctx) {
  if (M.Result != Membership::Conditional || M.Conditions.size() != 1 ||
      M.Conditions[0].Conjuncts.size() != 1)
    return false;
  const auto *If = dyn_cast<IfStmt>(M.Conditions[0].Anchor);
  if (!If || !If->getElse() ||
      If->getCond() != M.Conditions[0].Conjuncts[0].Condition)
    return false;
  const Stmt *Other = M.Conditions[0].Conjuncts[0].Negated ? If->getThen()
                                                          : If->getElse();
  return callsWithFullMask(Other, primitiveName(Call), Ctx);
}

} // namespace

void WarpFullMaskDivergentCheck::registerMatchers(MatchFinder &Finder) {
  context().SyncPrimitiveCalls.subscribe(Finder, *this);
}

void WarpFullMaskDivergentCheck::run(const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
  ASTContext &Ctx = *Result.Context;
  // A template that is instantiated is judged in its instantiations, where
  // types are known; as written, a dependent declaration can hide what its
  // loop counters do, and report lanes diverging that never do.
  if (context().analyses(Ctx).Calls.judgedInInstantiations(
          enclosingFunction(Ctx, Call)))
    return;
  const Expr *Mask = memberMaskArgument(*Call, Ctx);
  if (!Mask)
    return;
  std::vector<MaskOrigin> Origins = maskOrigins(Mask, Ctx);
  bool ThroughVariable = false;
  for (const MaskOrigin &Origin : Origins) {
    // A full mask narrowed by a constant is the constant.
    if (Origin.CombinedBy || !isFullMaskConstant(Origin.Origin, Ctx))
      return;
    ThroughVariable |= Origin.ThroughVariable;
  }
  if (Origins.empty())
    return;
  Membership Lanes = context().analyses(Ctx).Members.at(Call);
  if (!Lanes.isPartial() || otherArmMatches(*Call, Lanes, Ctx))
    return;

  llvm::StringRef Primitive = primitiveName(*Call);
  bool DefaultArgument = isa<CXXDefaultArgExpr>(Mask);
  // A mask spelled by a macro is reported where the macro is used.
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Where = SM.getExpansionLoc(
      DefaultArgument ? Call->getBeginLoc() : Mask->getBeginLoc());
  FindingBuilder Finding = report(
      Where, ("the full mask names every lane of the warp, but only some "
              "lanes reach this '" + Primitive +
              "'; the others never arrive, so it may hang or read undefined "
              "values (seed 000, recommendation 1)")
                 .str());
  std::optional<MaskParameter> Threaded;
  if (Lanes.Result == Membership::Unknown) {
    Threaded = planMaskParameter(*Call, Ctx, context().analyses(Ctx),
                                 context().Skipped, maskStyle());
    if (Threaded->Result != MaskParameter::Ready) {
      if (Threaded->Result == MaskParameter::Refused)
        Finding.note(Threaded->WhyLoc, refusedMaskParameterNote(*Threaded));
      withoutFixFor(Finding, Lanes);
      return;
    }
  }
  if (ThroughVariable) {
    Finding.withoutFix(Mask->getBeginLoc(),
                       "no automatic fix: the full mask comes through a "
                       "variable that other code may use; pass a ballot of "
                       "the branch condition, taken before the branch");
    return;
  }
  CharSourceRange Range;
  std::string Prefix;
  if (DefaultArgument) {
    // __syncwarp() with its default argument: the mask goes inside the
    // parentheses.
    SourceLocation RParen = Call->getRParenLoc();
    if (RParen.isMacroID()) {
      Finding.withoutFix(Where, "no automatic fix: the call is written by a "
                                "macro");
      return;
    }
    Range = CharSourceRange::getCharRange(RParen, RParen);
  } else {
    Range = Lexer::makeFileCharRange(
        CharSourceRange::getTokenRange(Mask->IgnoreParenImpCasts()
                                           ->getSourceRange()),
        SM, Ctx.getLangOpts());
  }
  if (Range.isInvalid()) {
    Finding.withoutFix(Where, "no automatic fix: the mask is assembled by a "
                              "macro");
    return;
  }
  if (Threaded) {
    addMaskParameter(*Threaded, Finding);
    Finding.replace(Range, Threaded->Name);
    return;
  }
  std::optional<std::string> Text =
      emitMask(Lanes, Where, Finding, maskStyle(), Ctx);
  if (!Text)
    return;
  Finding.replace(Range, *Text);
  explainMask(Finding, Lanes, Where);
}

} // namespace warpfix
