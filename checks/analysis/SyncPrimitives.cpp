#include "checks/analysis/SyncPrimitives.h"
#include "checks/analysis/CallSites.h"
#include "checks/analysis/LocalSlots.h"
#include "checks/analysis/SystemHeaders.h"
#include "llvm/ADT/StringSet.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace warpfix {
namespace {

/// "::" + the qualified name matches ^::__.*_sync$|^::__syncwarp$.
bool qualifiedNameMatches(const NamedDecl &D) {
  // The qualified name ends with the declaration's own name: one that is an
  // identifier must end in "_sync" or be "__syncwarp" for it to match.
  if (const IdentifierInfo *Id = D.getIdentifier())
    if (!mayBeSyncPrimitiveName(Id->getName()))
      return false;
  std::string Full = "::" + D.getQualifiedNameAsString();
  llvm::StringRef Text = Full;
  // "::__" and "_sync" may not overlap: at least nine characters.
  return (Text.size() >= 9 && Text.starts_with("::__") &&
          Text.ends_with("_sync")) ||
         Text == "::__syncwarp";
}

} // namespace

bool isSyncPrimitiveCall(const CallExpr &Call, const SourceManager &SM) {
  const FunctionDecl *Callee = Call.getDirectCallee();
  return Callee && qualifiedNameMatches(*Callee) &&
         isExpansionInSystemHeader(*Callee, SM) &&
         !isExpansionInSystemHeader(Call, SM);
}

llvm::StringRef primitiveName(const CallExpr &Call) {
  const FunctionDecl *Callee = Call.getDirectCallee();
  if (!Callee || !Callee->getIdentifier())
    return "";
  return Callee->getName();
}

const Expr *memberMaskArgument(const CallExpr &Call, const ASTContext &Ctx) {
  const FunctionDecl *Callee = Call.getDirectCallee();
  llvm::StringRef Name = primitiveName(Call);
  if (!Callee || Call.getNumArgs() == 0 || isa<CXXMemberCallExpr>(Call) ||
      !Ctx.getSourceManager().isInSystemHeader(Callee->getLocation()))
    return nullptr;
  if (!Name.starts_with("__") ||
      !(Name.ends_with("_sync") || Name == "__syncwarp"))
    return nullptr;
  if (!Call.getArg(0)->getType()->isIntegerType())
    return nullptr;
  return Call.getArg(0);
}

namespace {

const FunctionDecl *functionOf(const Decl *D) {
  return dyn_cast_or_null<FunctionDecl>(D->getParentFunctionOrMethod());
}

/// The values a local variable is given anywhere in its function; null stands
/// for a value that cannot be followed (x += y, &x escaping, and so on).
std::vector<const Expr *> valuesOf(const VarDecl *Var) {
  class Collector : public RecursiveASTVisitor<Collector> {
  public:
    explicit Collector(const VarDecl *Var) : Var(Var) {}
    std::vector<const Expr *> Values;
    bool refersToVar(const Expr *E) {
      const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
      return Ref && Ref->getDecl() == Var;
    }
    bool VisitBinaryOperator(BinaryOperator *B) {
      if (B->isAssignmentOp() && refersToVar(B->getLHS()))
        Values.push_back(B->getOpcode() == BO_Assign ? B->getRHS() : nullptr);
      return true;
    }
    bool VisitUnaryOperator(UnaryOperator *U) {
      if ((U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf) &&
          refersToVar(U->getSubExpr()))
        Values.push_back(nullptr);
      return true;
    }

  private:
    const VarDecl *Var;
  };
  std::vector<const Expr *> Values;
  if (Var->getInit())
    Values.push_back(Var->getInit());
  const FunctionDecl *F = functionOf(Var);
  if (F && F->getBody()) {
    Collector C(Var);
    C.TraverseStmt(F->getBody());
    Values.insert(Values.end(), C.Values.begin(), C.Values.end());
  }
  return Values;
}

/// `return X;` as the whole body of a parameterless user function.
const Expr *wrappedValue(const CallExpr *Call, const ASTContext &Ctx) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee || Callee->getNumParams() != 0 || !Callee->hasBody() ||
      Ctx.getSourceManager().isInSystemHeader(Callee->getLocation()))
    return nullptr;
  const auto *Body = dyn_cast<CompoundStmt>(Callee->getBody());
  if (!Body || Body->size() != 1)
    return nullptr;
  const auto *Return = dyn_cast<ReturnStmt>(Body->body_front());
  return Return ? Return->getRetValue() : nullptr;
}

bool isIntegerConstant(const Expr *E, const ASTContext &Ctx) {
  return !E->isValueDependent() && E->isIntegerConstantExpr(Ctx);
}

void trace(const Expr *E, ASTContext &Ctx, bool ThroughVariable,
           std::vector<MaskOrigin> &Out, unsigned Depth,
           const CallSites *Calls) {
  if (!E)
    return;
  const Expr *Bare = E->IgnoreParenImpCasts();
  // A value narrowed by a constant, where the mask is used or where a local
  // that becomes the mask is set (`m = __activemask() & 0xffff`): the lanes
  // it names are those of the value within the constant's. A fix of the
  // value goes next to its constant. A variable narrowed (`m & 0xff`) is
  // followed to its own origins, each marked as narrowed here.
  if (const auto *And = dyn_cast<BinaryOperator>(Bare);
      And && And->getOpcode() == BO_And && Depth < 8) {
    bool LeftConstant = isIntegerConstant(And->getLHS(), Ctx);
    bool RightConstant = isIntegerConstant(And->getRHS(), Ctx);
    if (LeftConstant != RightConstant) {
      const Expr *Value = LeftConstant ? And->getRHS() : And->getLHS();
      const Expr *Constant = LeftConstant ? And->getLHS() : And->getRHS();
      if (!isa<DeclRefExpr>(Value->IgnoreParenImpCasts())) {
        Out.push_back({Value, ThroughVariable, And, Constant});
        return;
      }
      size_t First = Out.size();
      trace(Value, Ctx, ThroughVariable, Out, Depth + 1, Calls);
      for (size_t I = First; I < Out.size(); ++I)
        if (!Out[I].CombinedBy) {
          Out[I].CombinedBy = And;
          Out[I].Constant = Constant;
          Out[I].NarrowedAtUse = true;
        }
      return;
    }
  }
  if (Depth < 8)
    if (const auto *Ref = dyn_cast<DeclRefExpr>(Bare))
      if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
          Var && Var->hasLocalStorage() && !isa<ParmVarDecl>(Var)) {
        for (const Expr *Value : valuesOf(Var)) {
          if (Value)
            trace(Value, Ctx, true, Out, Depth + 1, Calls);
          else
            Out.push_back({Bare, true});
        }
        return;
      }
  // A parameter of a helper: what each call passes, and whatever the helper
  // assigns it. Where some caller is not seen, its origin is unknown.
  if (Calls && Depth < 8)
    if (const auto *Ref = dyn_cast<DeclRefExpr>(Bare))
      if (const auto *Param = dyn_cast<ParmVarDecl>(Ref->getDecl())) {
        const auto *F = dyn_cast<FunctionDecl>(Param->getDeclContext());
        if (!F || !F->getBody() || Calls->callersUnseen(F) ||
            Calls->of(F).empty()) {
          Out.push_back({E, ThroughVariable});
          return;
        }
        for (const Expr *Site : Calls->of(F)) {
          if (const Expr *Argument = CallSites::argumentFor(Site, Param))
            trace(Argument, Ctx, true, Out, Depth + 1, Calls);
          else
            Out.push_back({Bare, true});
        }
        for (const Expr *Value : valuesOf(Param)) {
          if (Value)
            trace(Value, Ctx, true, Out, Depth + 1, Calls);
          else
            Out.push_back({Bare, true});
        }
        return;
      }
  // An element or field of a local (`mask[0]`, `s.mask`): the values stored
  // into that very part.
  if (Depth < 8 && isa<ArraySubscriptExpr, MemberExpr>(Bare))
    if (std::optional<LocalSlot> Slot = slotOf(Bare, Ctx)) {
      SlotAccesses Accesses = accessesOf(*Slot, Ctx);
      if (Accesses.Unmodelled || Accesses.Stored.empty()) {
        Out.push_back({Bare, true});
        return;
      }
      for (const Expr *Value : Accesses.Stored) {
        if (Value)
          trace(Value, Ctx, true, Out, Depth + 1, Calls);
        else
          Out.push_back({Bare, true});
      }
      return;
    }
  Out.push_back({E, ThroughVariable});
}

} // namespace

std::vector<MaskOrigin> maskOrigins(const Expr *Mask, ASTContext &Ctx,
                                    const CallSites *Calls) {
  std::vector<MaskOrigin> Out;
  trace(Mask, Ctx, false, Out, 0, Calls);
  return Out;
}

bool isActiveMaskCall(const Expr *E, ASTContext &Ctx) {
  for (unsigned Depth = 0; E && Depth < 4; ++Depth) {
    const auto *Call = dyn_cast<CallExpr>(E->IgnoreParenImpCasts());
    if (!Call)
      return false;
    if (primitiveName(*Call) == "__activemask")
      return true;
    E = wrappedValue(Call, Ctx);
  }
  return false;
}

bool isFullMaskConstant(const Expr *E, const ASTContext &Ctx) {
  if (!E || E->isValueDependent())
    return false;
  Expr::EvalResult Result;
  if (!E->EvaluateAsInt(Result, Ctx))
    return false;
  llvm::APSInt Value = Result.Val.getInt();
  return Value.getBitWidth() >= 32 &&
         Value.extOrTrunc(32).isAllOnes();
}

bool isPureToolkitCall(const CallExpr &Call, const SourceManager &SM) {
  const FunctionDecl *Callee = Call.getDirectCallee();
  if (!Callee || !Callee->getIdentifier() || isa<CXXMemberCallExpr>(Call) ||
      !SM.isInSystemHeader(Callee->getLocation()))
    return false;
  static const llvm::StringSet<> Pure = {
      "min", "max", "abs", "labs", "llabs", "fabs", "fabsf", "fmin", "fminf",
      "fmax", "fmaxf", "sqrt", "sqrtf", "floor", "floorf", "ceil", "ceilf",
      "__popc", "__popcll", "__clz", "__clzll", "__ffs", "__ffsll", "__brev",
      "__brevll", "__mul24", "__umul24", "__mulhi", "__umulhi", "__fadd_rn",
      "__fmul_rn", "__dadd_rn", "__dmul_rn", "__float2int_rn",
      "__int2float_rn", "__hadd", "__hmax", "__hmin", "__half2float",
      "__float2half"};
  return Pure.contains(Callee->getName());
}

} // namespace warpfix
