#include "checks/analysis/LocalSlots.h"
#include "checks/analysis/Parents.h"
#include "checks/analysis/LocalDefinitions.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace warpfix {
namespace {

std::optional<int64_t> constantIndex(const Expr *Index,
                                     const ASTContext &Ctx) {
  Expr::EvalResult Result;
  if (Index->isValueDependent() || !Index->EvaluateAsInt(Result, Ctx))
    return std::nullopt;
  return Result.Val.getInt().getExtValue();
}

/// A field of a union shares its storage with the others: a path through
/// one cannot be told apart from a path through another.
bool isUnionField(const FieldDecl *Field) {
  return Field->getParent()->isUnion();
}

bool isFollowedVariable(const VarDecl *Var) {
  return Var && Var->hasLocalStorage() && !isa<ParmVarDecl>(Var);
}

/// A reference to the variable, widened to the largest part of it that the
/// code names at that place: `mask` in `mask[0] = v` widens to `mask[0]`.
struct NamedPart {
  const Expr *Lvalue;
  std::vector<LocalSlot::Step> Path;
  /// A non-constant index (or a union's field) on the way: the part may be
  /// any of several.
  bool Imprecise = false;
};

NamedPart widen(ASTContext &Ctx, const DeclRefExpr *Ref) {
  NamedPart Part{Ref, {}, false};
  while (const Stmt *P = parentStmt(Ctx, Part.Lvalue)) {
    if (isa<ParenExpr>(P)) {
      Part.Lvalue = cast<Expr>(P);
      continue;
    }
    if (const auto *Cast = dyn_cast<ImplicitCastExpr>(P)) {
      if (Cast->getCastKind() == CK_NoOp) {
        Part.Lvalue = Cast;
        continue;
      }
      const auto *Sub =
          Cast->getCastKind() == CK_ArrayToPointerDecay
              ? dyn_cast_or_null<ArraySubscriptExpr>(parentStmt(Ctx, Cast))
              : nullptr;
      if (!Sub || Sub->getBase() != Cast)
        break;
      std::optional<int64_t> Index = constantIndex(Sub->getIdx(), Ctx);
      Part.Imprecise |= !Index;
      Part.Path.push_back({nullptr, Index.value_or(0)});
      Part.Lvalue = Sub;
      continue;
    }
    const auto *Member = dyn_cast<MemberExpr>(P);
    const auto *Field =
        Member ? dyn_cast<FieldDecl>(Member->getMemberDecl()) : nullptr;
    if (!Field || Member->isArrow() || Member->getBase() != Part.Lvalue)
      break;
    Part.Imprecise |= isUnionField(Field);
    Part.Path.push_back({Field, 0});
    Part.Lvalue = Member;
  }
  return Part;
}

enum class Overlap { None, Exact, Partial };

Overlap overlap(const NamedPart &Part, const LocalSlot &Slot) {
  size_t Common = std::min(Part.Path.size(), Slot.Path.size());
  for (size_t I = 0; I < Common; ++I) {
    const LocalSlot::Step &A = Part.Path[I], &B = Slot.Path[I];
    if (A.Field != B.Field)
      return A.Field && B.Field && !isUnionField(A.Field) ? Overlap::None
                                                          : Overlap::Partial;
    if (!A.Field && A.Index != B.Index && !Part.Imprecise)
      return Overlap::None;
  }
  return Part.Path.size() == Slot.Path.size() && !Part.Imprecise
             ? Overlap::Exact
             : Overlap::Partial;
}

/// The part of an initializer that gives the slot its value; null when it
/// cannot be told.
const Expr *initializerOf(const Expr *Init, const LocalSlot &Slot) {
  for (const LocalSlot::Step &Step : Slot.Path) {
    const auto *List = dyn_cast<InitListExpr>(Init->IgnoreParenImpCasts());
    if (!List)
      return nullptr;
    unsigned Index = Step.Field ? Step.Field->getFieldIndex()
                                : static_cast<unsigned>(Step.Index);
    if ((Step.Field && isUnionField(Step.Field)) || Step.Index < 0 ||
        Index >= List->getNumInits())
      return nullptr;
    Init = List->getInit(Index);
  }
  if (isa<ImplicitValueInitExpr, InitListExpr>(Init->IgnoreParenImpCasts()))
    return nullptr;
  return Init;
}

/// A declaration that leaves the variable uninitialised: `float t[1];`.
bool storesNothing(const Expr *Init) {
  const auto *Construct = dyn_cast<CXXConstructExpr>(Init);
  return Construct && Construct->getNumArgs() == 0 &&
         Construct->getConstructor()->isTrivial();
}

class Visitor : public RecursiveASTVisitor<Visitor> {
public:
  Visitor(ASTContext &Ctx, const LocalSlot &Slot, SlotAccesses &Out)
      : Ctx(Ctx), Slot(Slot), Out(Out) {}

  bool VisitDeclRefExpr(DeclRefExpr *Ref) {
    if (Ref->getDecl() != Slot.Var)
      return true;
    NamedPart Part = widen(Ctx, Ref);
    Overlap O = overlap(Part, Slot);
    if (O == Overlap::None)
      return true;
    const Stmt *P = parentStmt(Ctx, Part.Lvalue);
    if (const auto *B = dyn_cast_or_null<BinaryOperator>(P);
        B && B->isAssignmentOp() && B->getLHS() == Part.Lvalue) {
      bool Plain = O == Overlap::Exact && B->getOpcode() == BO_Assign;
      Out.Stored.push_back(Plain ? B->getRHS() : nullptr);
      return true;
    }
    if (const auto *U = dyn_cast_or_null<UnaryOperator>(P);
        U && U->isIncrementDecrementOp()) {
      Out.Stored.push_back(nullptr);
      return true;
    }
    if (const auto *Call = dyn_cast_or_null<CXXOperatorCallExpr>(P);
        Call && Call->getOperator() == OO_Equal && Call->getNumArgs() == 2 &&
        Call->getArg(0) == Part.Lvalue) {
      Out.Stored.push_back(nullptr); // the whole object, copied in
      return true;
    }
    if (isa_and_nonnull<UnaryExprOrTypeTraitExpr>(P))
      return true; // sizeof: not evaluated
    const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(P);
    if (O == Overlap::Exact && Cast &&
        Cast->getCastKind() == CK_LValueToRValue) {
      Out.Reads.push_back(Part.Lvalue);
      return true;
    }
    Out.Unmodelled = true;
    return true;
  }

private:
  ASTContext &Ctx;
  const LocalSlot &Slot;
  SlotAccesses &Out;
};

} // namespace

std::string LocalSlot::name() const {
  std::string Name = Var->getNameAsString();
  for (const Step &S : Path)
    Name += S.Field ? "." + S.Field->getNameAsString()
                    : "[" + std::to_string(S.Index) + "]";
  return Name;
}

std::optional<LocalSlot> slotOf(const Expr *E, const ASTContext &Ctx) {
  LocalSlot Slot;
  while (true) {
    E = E->IgnoreParens();
    if (const auto *Cast = dyn_cast<ImplicitCastExpr>(E);
        Cast && Cast->getCastKind() == CK_NoOp) {
      E = Cast->getSubExpr();
      continue;
    }
    if (const auto *Sub = dyn_cast<ArraySubscriptExpr>(E)) {
      const auto *Decay =
          dyn_cast<ImplicitCastExpr>(Sub->getBase()->IgnoreParens());
      std::optional<int64_t> Index = constantIndex(Sub->getIdx(), Ctx);
      if (!Decay || Decay->getCastKind() != CK_ArrayToPointerDecay || !Index)
        return std::nullopt;
      Slot.Path.push_back({nullptr, *Index});
      E = Decay->getSubExpr();
      continue;
    }
    if (const auto *Member = dyn_cast<MemberExpr>(E)) {
      const auto *Field = dyn_cast<FieldDecl>(Member->getMemberDecl());
      if (!Field || Member->isArrow() || isUnionField(Field))
        return std::nullopt;
      Slot.Path.push_back({Field, 0});
      E = Member->getBase();
      continue;
    }
    break;
  }
  const auto *Ref = dyn_cast<DeclRefExpr>(E);
  Slot.Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!isFollowedVariable(Slot.Var))
    return std::nullopt;
  std::reverse(Slot.Path.begin(), Slot.Path.end());
  return Slot;
}

std::optional<LocalSlot> slotStoredBy(const Expr *Value, ASTContext &Ctx) {
  const Stmt *Child = Value;
  while (true) {
    DynTypedNodeList Parents = parentsOf(Ctx, *Child);
    if (Parents.empty())
      return std::nullopt;
    if (const auto *Var = Parents[0].get<VarDecl>()) {
      if (!isFollowedVariable(Var) || Var->getInit() != Child ||
          !Var->getType()->isScalarType())
        return std::nullopt;
      return LocalSlot{Var, {}};
    }
    const Stmt *P = Parents[0].get<Stmt>();
    if (isa_and_nonnull<ParenExpr, ImplicitCastExpr>(P)) {
      Child = P;
      continue;
    }
    const auto *Assign = dyn_cast_or_null<BinaryOperator>(P);
    if (!Assign || Assign->getOpcode() != BO_Assign ||
        Assign->getRHS() != Child)
      return std::nullopt;
    return slotOf(Assign->getLHS(), Ctx);
  }
}

SlotAccesses accessesOf(const LocalSlot &Slot, ASTContext &Ctx) {
  SlotAccesses Out;
  const auto *F =
      dyn_cast_or_null<FunctionDecl>(Slot.Var->getParentFunctionOrMethod());
  if (!F || !F->getBody()) {
    Out.Unmodelled = true;
    return Out;
  }
  if (const Expr *Init = Slot.Var->getInit(); Init && !storesNothing(Init))
    Out.Stored.push_back(initializerOf(Init, Slot));
  Visitor V(Ctx, Slot, Out);
  V.TraverseStmt(F->getBody());
  // By-reference lambda captures and the like.
  if (localDefinitionsOf(Ctx, F->getBody())->Escaped.contains(Slot.Var))
    Out.Unmodelled = true;
  return Out;
}

} // namespace warpfix
