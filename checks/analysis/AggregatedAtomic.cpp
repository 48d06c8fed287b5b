#include "checks/analysis/AggregatedAtomic.h"
#include "checks/analysis/Parents.h"
#include "checks/analysis/LocalSlots.h"
#include "checks/analysis/SyncPrimitives.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace warpfix {
namespace {

bool isToolkitCall(const CallExpr *Call, llvm::StringRef Name,
                   const SourceManager &SM) {
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  return Callee && primitiveName(*Call) == Name &&
         SM.isInSystemHeader(Callee->getLocation());
}

bool reads(const Expr *E, const VarDecl *Var) {
  const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  return Ref && Ref->getDecl() == Var;
}

/// The expression that takes E's value, past parentheses and implicit
/// conversions; Operand is set to the child of it that holds E.
const Stmt *consumerOf(ASTContext &Ctx, const Expr *E, const Expr *&Operand) {
  Operand = E;
  while (true) {
    DynTypedNodeList Parents = parentsOf(Ctx, *Operand);
    const Stmt *P = Parents.empty() ? nullptr : Parents[0].get<Stmt>();
    if (!isa_and_nonnull<ParenExpr, ImplicitCastExpr>(P))
      return P;
    Operand = cast<Expr>(P);
  }
}

/// `__ffs(m) - 1`: a lane of m, the lowest.
bool isLeaderExpression(const Expr *E, const VarDecl *M, ASTContext &Ctx) {
  const auto *Sub = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts());
  if (!Sub || Sub->getOpcode() != BO_Sub)
    return false;
  Expr::EvalResult One;
  const auto *Ffs = dyn_cast<CallExpr>(Sub->getLHS()->IgnoreParenImpCasts());
  return !Sub->getRHS()->isValueDependent() &&
         Sub->getRHS()->EvaluateAsInt(One, Ctx) && One.Val.getInt() == 1 &&
         isToolkitCall(Ffs, "__ffs", Ctx.getSourceManager()) &&
         Ffs->getNumArgs() == 1 && reads(Ffs->getArg(0), M);
}

/// The leader of m, written out or kept in a local given nothing else.
bool isLeaderOf(const Expr *Source, const VarDecl *M, ASTContext &Ctx) {
  if (isLeaderExpression(Source, M, Ctx))
    return true;
  std::optional<LocalSlot> Leader = slotOf(Source->IgnoreParenImpCasts(), Ctx);
  if (!Leader || !Leader->Path.empty() || !Leader->Var->getInit())
    return false;
  SlotAccesses Accesses = accessesOf(*Leader, Ctx);
  return !Accesses.Unmodelled && Accesses.Stored.size() == 1 &&
         Accesses.Stored.front() == Leader->Var->getInit() &&
         isLeaderExpression(Leader->Var->getInit(), M, Ctx);
}

/// The shuffle covers the whole warp: with a narrower width, the leader's
/// lane number would be taken within each segment.
bool coversWholeWarp(const CallExpr *Shuffle, ASTContext &Ctx) {
  if (Shuffle->getNumArgs() < 4 || isa<CXXDefaultArgExpr>(Shuffle->getArg(3)))
    return true;
  Expr::EvalResult Width;
  const Expr *W = Shuffle->getArg(3);
  return !W->isValueDependent() && W->EvaluateAsInt(Width, Ctx) &&
         Width.Val.getInt() == 32;
}

/// Helpers that take the mask by value are followed this many calls deep.
constexpr unsigned MaxHelperDepth = 4;

bool usedOnlyForAggregation(const VarDecl *M,
                            const std::vector<const Expr *> &Reads,
                            const Membership &Reference, const Expr *After,
                            ASTContext &Ctx, MembershipAnalysis &Members,
                            unsigned Depth);

/// The parameter of a user-written function that the argument Operand of
/// Call initializes by value, if it is one: the helper gets its own copy of
/// the mask, and what the helper does with it decides the idiom.
const ParmVarDecl *parameterCopying(const CallExpr &Call, const Expr *Operand,
                                    const SourceManager &SM) {
  const FunctionDecl *Callee = Call.getDirectCallee();
  const FunctionDecl *Definition = nullptr;
  // An operator's arguments may start with its object.
  if (isa<CXXOperatorCallExpr>(Call) || !Callee ||
      !Callee->hasBody(Definition) ||
      SM.isInSystemHeader(Definition->getLocation()))
    return nullptr;
  for (unsigned I = 0; I < Call.getNumArgs(); ++I)
    if (Call.getArg(I) == Operand && I < Definition->getNumParams()) {
      const ParmVarDecl *Param = Definition->getParamDecl(I);
      return Param->getType()->isIntegerType() ? Param : nullptr;
    }
  return nullptr;
}

/// A helper's copy of the mask is the idiom if it is never assigned and
/// every use of it is, for every lane that enters the helper.
bool helperUsesForAggregation(const ParmVarDecl *Param, ASTContext &Ctx,
                              MembershipAnalysis &Members, unsigned Depth) {
  SlotAccesses Accesses = accessesOf(LocalSlot{Param, {}}, Ctx);
  if (Accesses.Unmodelled || !Accesses.Stored.empty())
    return false;
  Membership Entered;
  Entered.Result = Membership::AllLanes;
  return usedOnlyForAggregation(Param, Accesses.Reads, Entered, nullptr, Ctx,
                                Members, Depth + 1);
}

/// Whether each of Reads, the reads of the mask M, is a use of the idiom,
/// made after After (if given) by the same lanes as Reference.
bool usedOnlyForAggregation(const VarDecl *M,
                            const std::vector<const Expr *> &Reads,
                            const Membership &Reference, const Expr *After,
                            ASTContext &Ctx, MembershipAnalysis &Members,
                            unsigned Depth) {
  const SourceManager &SM = Ctx.getSourceManager();
  auto ReachedLikeReference = [&](const CallExpr *Call) {
    return (!After || SM.isBeforeInTranslationUnit(After->getBeginLoc(),
                                                   Call->getBeginLoc())) &&
           sameLanes(Reference, Members.withinFunction(Call));
  };
  for (const Expr *Read : Reads) {
    const Expr *Operand = nullptr;
    const Stmt *User = consumerOf(Ctx, Read, Operand);
    const auto *Call = dyn_cast_or_null<CallExpr>(User);
    if (isToolkitCall(Call, "__ffs", SM) || isToolkitCall(Call, "__popc", SM))
      continue;
    // `__popc(m & lanes_below)`: the lanes of m below this one.
    if (const auto *And = dyn_cast_or_null<BinaryOperator>(User);
        And && And->getOpcode() == BO_And) {
      const Expr *Unused = nullptr;
      if (isToolkitCall(dyn_cast_or_null<CallExpr>(consumerOf(Ctx, And, Unused)),
                        "__popc", SM))
        continue;
      return false;
    }
    if (isToolkitCall(Call, "__shfl_sync", SM)) {
      if (Call->getNumArgs() < 3 || Call->getArg(0) != Operand ||
          !isLeaderOf(Call->getArg(2), M, Ctx) || !coversWholeWarp(Call, Ctx) ||
          !ReachedLikeReference(Call))
        return false;
      continue;
    }
    const ParmVarDecl *Param =
        Call && Depth < MaxHelperDepth ? parameterCopying(*Call, Operand, SM)
                                       : nullptr;
    if (!Param || !ReachedLikeReference(Call) ||
        !helperUsesForAggregation(Param, Ctx, Members, Depth))
      return false;
  }
  return true;
}

} // namespace

bool isAggregationIdiom(const Expr *ActiveMask, ASTContext &Ctx,
                        MembershipAnalysis &Members) {
  std::optional<LocalSlot> Slot = slotStoredBy(ActiveMask, Ctx);
  if (!Slot || !Slot->Path.empty() || !Slot->Var->getInit())
    return false;
  const VarDecl *M = Slot->Var;
  SlotAccesses Accesses = accessesOf(*Slot, Ctx);
  if (Accesses.Unmodelled || Accesses.Stored.size() != 1 ||
      Accesses.Stored.front() != M->getInit())
    return false;
  return usedOnlyForAggregation(M, Accesses.Reads,
                                Members.withinFunction(ActiveMask), ActiveMask,
                                Ctx, Members, 0);
}

} // namespace warpfix
