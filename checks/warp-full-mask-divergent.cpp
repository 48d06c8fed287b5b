#include "checks/warp-full-mask-divergent.h"
#include "checks/MaskFix.h"
#include "checks/MaskParameter.h"
#include "checks/analysis/Analyses.h"
#include "checks/analysis/SkippedCode.h"
#include "checks/analysis/SyncPrimitives.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

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

/// Using CUDA Warp-Level Primitives, listing 4: the same primitive with the full mask in both arms of
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

/// The parameter of the function that the mask's call is in, named by E,
/// where every call of that function passes the full mask for it (a default
/// argument counts) and the function never assigns it: a wrapper such as
/// `shfl(v, lane, unsigned mask = 0xffffffff)`, whose own primitive then has
/// the full mask. Null where any caller may pass something else or is not
/// seen.
const ParmVarDecl *fullMaskParameter(const Expr *E, const FunctionDecl *F,
                                     Analyses &Shared, ASTContext &Ctx) {
  const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  const auto *Param = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
  // A method's calls also pass its object.
  const auto *Method = dyn_cast_or_null<CXXMethodDecl>(F);
  if (!Param || !F || Param->getDeclContext() != F ||
      (Method && !Method->isStatic()) || Shared.Calls.callersUnseen(F) ||
      Shared.Calls.of(F).empty() || !Shared.Lanes.keepsItsValue(Param))
    return nullptr;
  for (const Expr *Site : Shared.Calls.of(F))
    if (!isFullMaskConstant(CallSites::argumentFor(Site, Param), Ctx))
      return nullptr;
  return Param;
}

/// Whether every call of F is made by the same lanes, some of the warp only,
/// under the same branch conditions: then no other lane ever reaches F.
bool calledUnderOneBranch(const FunctionDecl *F, Analyses &Shared) {
  std::optional<Membership> First;
  for (const Expr *Site : Shared.Calls.of(F)) {
    Membership AtSite = Shared.Members.at(Site);
    if (AtSite.Result != Membership::Conditional ||
        (First && !sameLanes(*First, AtSite)))
      return false;
    if (!First)
      First = std::move(AtSite);
  }
  return First.has_value();
}

} // namespace

void WarpFullMaskDivergentCheck::onCall(const CallExpr &TheCall,
                                        ASTContext &Ctx) {
  if (!isSyncPrimitiveCall(TheCall, Ctx.getSourceManager()))
    return;
  const CallExpr *Call = &TheCall;
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
  const ParmVarDecl *ThroughParameter = nullptr;
  for (const MaskOrigin &Origin : Origins) {
    // A full mask narrowed by a constant is the constant.
    if (Origin.CombinedBy)
      return;
    if (!isFullMaskConstant(Origin.Origin, Ctx)) {
      ThroughParameter =
          fullMaskParameter(Origin.Origin, enclosingFunction(Ctx, Call),
                            context().analyses(Ctx), Ctx);
      if (!ThroughParameter)
        return;
    }
    ThroughVariable |= Origin.ThroughVariable;
  }
  if (Origins.empty())
    return;
  Membership Lanes = context().analyses(Ctx).Members.at(Call);
  if (!Lanes.isPartial() || otherArmMatches(*Call, Lanes, Ctx))
    return;
  // Through a parameter, only where every call is made under the same
  // branch: calls by different lanes may be the two arms of one if/else,
  // which together reach the primitive in every lane (Using CUDA Warp-Level Primitives, listing 4).
  if (ThroughParameter && !calledUnderOneBranch(
                              cast<FunctionDecl>(ThroughParameter->getDeclContext()),
                              context().analyses(Ctx)))
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
              "values (Using CUDA Warp-Level Primitives, recommendation 1)")
                 .str());
  if (ThroughParameter) {
    // The mask is the callers' to choose: a fix here would change it for
    // every call.
    Finding.withoutFix(
        Mask->getBeginLoc(),
        ("no automatic fix: the full mask comes in through parameter '" +
         ThroughParameter->getName() +
         "', which every call leaves full; pass a ballot of the branch "
         "condition, taken before the branch, from the calls that only some "
         "lanes make")
            .str());
    if (!Lanes.Reason.empty())
      Finding.note(Lanes.ReasonLoc, Lanes.Reason);
    return;
  }
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
