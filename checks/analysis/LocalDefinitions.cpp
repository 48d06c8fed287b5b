#include "checks/analysis/LocalDefinitions.h"
#include "checks/analysis/CallSites.h"
#include "checks/analysis/Parents.h"
#include "checks/analysis/PureAccessors.h"
#include <optional>
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace warpfix {
namespace {

bool isLocal(const VarDecl *Var) {
  return Var->hasLocalStorage() || isa<ParmVarDecl>(Var);
}

/// A trivial or defaulted copy or move assignment: a plain store of the
/// whole object, like `=` on a scalar (float4 a; a = b;).
bool isPlainAssignment(const CXXOperatorCallExpr *Call) {
  if (Call->getOperator() != OO_Equal || Call->getNumArgs() != 2)
    return false;
  const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Call->getDirectCallee());
  return Method && (Method->isCopyAssignmentOperator() ||
                    Method->isMoveAssignmentOperator()) &&
         (Method->isTrivial() || Method->isDefaulted());
}

/// Whether an object of Type has a `mutable` field, itself or in a base or a
/// member: a const method, or a const reference, may still write it.
bool hasMutableField(QualType Type, unsigned Depth = 0) {
  const auto *Record = Type->getBaseElementTypeUnsafe()->getAsCXXRecordDecl();
  if (!Record || !Record->hasDefinition())
    return false;
  Record = Record->getDefinition();
  if (Depth > 8)
    return true;
  for (const FieldDecl *Field : Record->fields())
    if (Field->isMutable() || hasMutableField(Field->getType(), Depth + 1))
      return true;
  for (const CXXBaseSpecifier &Base : Record->bases())
    if (hasMutableField(Base.getType(), Depth + 1))
      return true;
  return false;
}

bool bindsReadOnly(QualType Type) {
  return Type->isReferenceType() && Type->getPointeeType().isConstQualified() &&
         !hasMutableField(Type->getPointeeType());
}

/// Whether a cast in S may write through what a const reference or pointer
/// names: a const_cast, or a C-style or functional cast to a reference or a
/// pointer whose pointee is not const, from one whose pointee is.
bool castsAwayConst(const Stmt *S) {
  if (!S)
    return false;
  if (isa<CXXConstCastExpr>(S))
    return true;
  if (const auto *Cast = dyn_cast<ExplicitCastExpr>(S)) {
    QualType To = Cast->getTypeAsWritten(), From = Cast->getSubExpr()->getType();
    auto Pointee = [](QualType T, bool IsLvalue) -> std::optional<QualType> {
      if (T->isReferenceType() || T->isPointerType())
        return T->getPointeeType();
      if (IsLvalue)
        return T;
      return std::nullopt;
    };
    std::optional<QualType> ToPointee = Pointee(To, false);
    std::optional<QualType> FromPointee =
        Pointee(From, Cast->getSubExpr()->isLValue() && To->isReferenceType());
    if (ToPointee && FromPointee && FromPointee->isConstQualified() &&
        !ToPointee->isConstQualified())
      return true;
  }
  for (const Stmt *Child : S->children())
    if (castsAwayConst(Child))
      return true;
  return false;
}

/// A const reference parameter only reads its argument, unless the body
/// casts the const away.
bool parameterReadsOnly(const CallExpr *Call, QualType Param) {
  if (Param.isNull() || !bindsReadOnly(Param))
    return false;
  const FunctionDecl *Definition = nullptr;
  const FunctionDecl *Callee = Call->getDirectCallee();
  return !Callee || !Callee->hasBody(Definition) ||
         !castsAwayConst(Definition->getBody());
}

/// A const method reads its object, unless the object has mutable fields.
bool readsOnly(const CXXMethodDecl *Method) {
  return Method && Method->isConst() &&
         !hasMutableField(
             QualType(Method->getParent()->getTypeForDecl(), 0));
}

/// The type of the parameter that argument Index of Call binds to; null when
/// it binds to no declared parameter (a call through a pointer, variadic
/// arguments). For a member operator, argument 0 is the object itself.
QualType parameterType(const CallExpr *Call, unsigned Index, bool &IsObject) {
  IsObject = false;
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee)
    return {};
  if (const auto *Method = dyn_cast<CXXMethodDecl>(Callee);
      Method && isa<CXXOperatorCallExpr>(Call) &&
      Method->isImplicitObjectMemberFunction()) {
    if (Index == 0) {
      IsObject = true;
      return {};
    }
    --Index;
  }
  if (Index >= Callee->getNumParams())
    return {};
  return Callee->getParamDecl(Index)->getType();
}

/// In a template as written, a call whose arguments depend on a template
/// parameter is resolved per instantiation, among the functions its name
/// finds. Argument Index is only read when each of them takes it by value or
/// by const reference, and no other can join them: argument-dependent
/// lookup can add none (CallSites::lookupMayGrow), or the name is reserved
/// to the implementation (`__shfl_down`), which a user's namespace may not
/// declare.
bool everyCandidateReads(const CallExpr &Call,
                         const UnresolvedLookupExpr &Lookup, unsigned Index) {
  const IdentifierInfo *Name = Lookup.getName().getAsIdentifierInfo();
  bool Reserved = Name && Name->getName().starts_with("__");
  if (CallSites::lookupMayGrow(Call, Lookup) && !Reserved)
    return false;
  if (Lookup.getNumDecls() == 0)
    return false;
  for (const NamedDecl *D : Lookup.decls()) {
    D = D->getUnderlyingDecl();
    if (const auto *T = dyn_cast<FunctionTemplateDecl>(D))
      D = T->getTemplatedDecl();
    const auto *F = dyn_cast<FunctionDecl>(D);
    if (!F || isa<CXXMethodDecl>(F))
      return false;
    if (Index >= F->getNumParams()) {
      // Too few parameters: not a candidate, unless variadic.
      if (F->isVariadic())
        return false;
      continue;
    }
    QualType Param = F->getParamDecl(Index)->getType();
    if (Param->isReferenceType() && !bindsReadOnly(Param))
      return false;
  }
  return true;
}

const Stmt *parentOf(ASTContext &Ctx, const Stmt *S, const Decl **AsDecl) {
  DynTypedNodeList Parents = parentsOf(Ctx, *S);
  *AsDecl = nullptr;
  if (Parents.empty())
    return nullptr;
  if (const auto *D = Parents[0].get<Decl>())
    *AsDecl = D;
  return Parents[0].get<Stmt>();
}

enum class Use { Read, Store, Escape };

/// An element access that no instantiation can turn into a call of an
/// `operator[]`: its base is an array or a pointer, dependent or not.
bool isBuiltinSubscript(const ArraySubscriptExpr *Sub) {
  QualType Base = Sub->getBase()->IgnoreParenImpCasts()->getType();
  return Base->isArrayType() || Base->isPointerType();
}

/// The implicit `__range` of a range-for whose loop variable cannot write the
/// elements: iterating by value or by const reference only reads.
bool isReadOnlyRange(ASTContext &Ctx, const VarDecl *Range) {
  if (!Range->isImplicit())
    return false;
  const Decl *Unused = nullptr;
  DynTypedNodeList Parents = parentsOf(Ctx, *Range);
  const auto *DS = Parents.empty() ? nullptr : Parents[0].get<DeclStmt>();
  const auto *Loop = DS ? dyn_cast_or_null<CXXForRangeStmt>(
                              parentOf(Ctx, DS, &Unused))
                        : nullptr;
  if (!Loop || Loop->getRangeStmt() != DS)
    return false;
  QualType Element = Loop->getLoopVariable()->getType();
  return !Element->isReferenceType() || bindsReadOnly(Element);
}

/// How the function uses a local at one of its names. Walks up through what
/// names a part of the same object (parentheses, fields, elements) to the
/// operation that reads it, stores to it, or lets its address go. Anything
/// not recognised escapes.
Use classify(ASTContext &Ctx, const DeclRefExpr *Ref, const VarDecl *Var) {
  const Expr *E = Ref;
  // A store counts only where the collector records it as a definition.
  auto StoreTo = [&](const Expr *Target) {
    return assignedLocal(Target) == Var ? Use::Store : Use::Escape;
  };
  while (true) {
    const Decl *AsDecl = nullptr;
    const Stmt *P = parentOf(Ctx, E, &AsDecl);
    if (AsDecl) {
      // Only a reference is initialised with an lvalue.
      const auto *Bound = dyn_cast<VarDecl>(AsDecl);
      const auto *Around = Bound ? dyn_cast_or_null<FunctionDecl>(
                                       Bound->getParentFunctionOrMethod())
                                 : nullptr;
      if (Bound &&
          (bindsReadOnly(Bound->getType()) || isReadOnlyRange(Ctx, Bound)) &&
          !(Around && castsAwayConst(Around->getBody())))
        return Use::Read;
      return Use::Escape;
    }
    if (!P)
      return Use::Escape;
    if (const auto *Cast = dyn_cast<ImplicitCastExpr>(P)) {
      switch (Cast->getCastKind()) {
      case CK_LValueToRValue:
        return Use::Read;
      case CK_NoOp:
        E = Cast;
        continue;
      case CK_ArrayToPointerDecay: {
        const Stmt *Up = parentOf(Ctx, Cast, &AsDecl);
        const auto *Sub = dyn_cast_or_null<ArraySubscriptExpr>(Up);
        if (Sub && Sub->getBase() == Cast) {
          E = Sub;
          continue;
        }
        return Use::Escape; // the array's address goes somewhere
      }
      default:
        return Use::Escape;
      }
    }
    if (const auto *Cast = dyn_cast<ExplicitCastExpr>(P))
      return Cast->getCastKind() == CK_ToVoid ? Use::Read : Use::Escape;
    if (isa<ParenExpr>(P)) {
      E = cast<Expr>(P);
      continue;
    }
    // In a template as written, an operand of an element access whose base
    // is type-dependent gets no lvalue-to-rvalue conversion (`mix[p]` with
    // `unsigned mix[N]`). Where the base is an array or a pointer whatever N
    // or T becomes, the subscript is built in and only reads the index, and
    // the base names the array itself, as its decay does in an instance.
    if (const auto *Sub = dyn_cast<ArraySubscriptExpr>(P)) {
      if (!isBuiltinSubscript(Sub))
        return Use::Escape;
      // An index of class type would be converted by a call, which may
      // change it.
      if (Sub->getIdx() == E && Sub->getBase() != E)
        return E->getType()->isIntegralOrEnumerationType() ? Use::Read
                                                           : Use::Escape;
      if (Sub->getBase() == E && E->getType()->isArrayType()) {
        E = Sub;
        continue;
      }
      return E->getType()->isPointerType() ? Use::Read : Use::Escape;
    }
    if (const auto *Member = dyn_cast<MemberExpr>(P)) {
      if (isa<FieldDecl>(Member->getMemberDecl())) {
        E = Member;
        continue;
      }
      // A method call: `this` is the variable's address, which only a const
      // method or an accessor whose result is read at once cannot write.
      const auto *Method = dyn_cast<CXXMethodDecl>(Member->getMemberDecl());
      if (readsOnly(Method))
        return Use::Read;
      const auto *Call =
          dyn_cast_or_null<CXXMemberCallExpr>(parentOf(Ctx, Member, &AsDecl));
      return Call && isReadOnlyAccessorCall(Ctx, Call) ? Use::Read
                                                       : Use::Escape;
    }
    if (const auto *B = dyn_cast<BinaryOperator>(P)) {
      if (B->isAssignmentOp() && B->getLHS() == E)
        return StoreTo(B->getLHS());
      if (B->getOpcode() == BO_Comma) {
        if (B->getLHS() == E)
          return Use::Read;
        E = B;
        continue;
      }
      return Use::Escape;
    }
    if (const auto *U = dyn_cast<UnaryOperator>(P))
      return U->isIncrementDecrementOp() ? StoreTo(U->getSubExpr())
                                         : Use::Escape;
    if (const auto *Call = dyn_cast<CallExpr>(P)) {
      if (Call->getCallee() == E)
        return Use::Escape; // a call through a local function reference
      unsigned Index = 0;
      while (Index < Call->getNumArgs() && Call->getArg(Index) != E)
        ++Index;
      if (const auto *Lookup = dyn_cast<UnresolvedLookupExpr>(
              Call->getCallee()->IgnoreParenImpCasts()))
        return Index < Call->getNumArgs() &&
                       everyCandidateReads(*Call, *Lookup, Index)
                   ? Use::Read
                   : Use::Escape;
      bool IsObject = false;
      QualType Param = parameterType(Call, Index, IsObject);
      if (IsObject) {
        const auto *Op = cast<CXXOperatorCallExpr>(Call);
        if (isPlainAssignment(Op))
          return StoreTo(Op->getArg(0));
        const auto *Method = cast<CXXMethodDecl>(Call->getDirectCallee());
        return readsOnly(Method) || isReadOnlyAccessorCall(Ctx, Call)
                   ? Use::Read
                   : Use::Escape;
      }
      return parameterReadsOnly(Call, Param) ? Use::Read : Use::Escape;
    }
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(P)) {
      const CXXConstructorDecl *Ctor = Construct->getConstructor();
      for (unsigned I = 0; I < Construct->getNumArgs(); ++I)
        if (Construct->getArg(I) == E)
          return Ctor && I < Ctor->getNumParams() &&
                         bindsReadOnly(Ctor->getParamDecl(I)->getType())
                     ? Use::Read
                     : Use::Escape;
      return Use::Escape;
    }
    if (isa<UnaryExprOrTypeTraitExpr>(P) || isa<CompoundStmt>(P))
      return Use::Read; // unevaluated, or a discarded statement `x;`
    return Use::Escape;
  }
}

class Collector : public RecursiveASTVisitor<Collector> {
public:
  explicit Collector(ASTContext &Ctx) : Ctx(Ctx) {}
  LocalDefinitions Result;

  bool TraverseLambdaExpr(LambdaExpr *Lambda) {
    // A mutable lambda's body may store into its copy, which its uses of the
    // name read there: the variable's definitions no longer tell its value.
    for (const LambdaCapture &Capture : Lambda->captures())
      if (Capture.capturesVariable() &&
          (Capture.getCaptureKind() == LCK_ByRef || Lambda->isMutable()))
        if (const auto *Var = dyn_cast<VarDecl>(Capture.getCapturedVar()))
          Result.Escaped.insert(Var);
    // By-copy captures are read where the lambda is created.
    for (Expr *Init : Lambda->capture_inits())
      if (Init)
        TraverseStmt(Init);
    return true;
  }
  bool VisitVarDecl(VarDecl *Var) {
    if (Var->hasLocalStorage() && Var->getInit())
      Result.Definitions.push_back({Var, Var->getInit(), Var->getInit()});
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *B) {
    if (B->isAssignmentOp())
      store(B->getLHS(), B->getRHS(), B, B->isCompoundAssignmentOp());
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *Call) {
    if (isPlainAssignment(Call))
      store(Call->getArg(0), Call->getArg(1), Call, false);
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *U) {
    if (U->isIncrementDecrementOp())
      if (const VarDecl *Var = assignedLocal(U->getSubExpr())) {
        Result.Definitions.push_back({Var, nullptr, U});
        // As for a store: which element changes depends on the index
        // (`hist[lane]++`).
        if (!isa<DeclRefExpr>(U->getSubExpr()->IgnoreParens()))
          Result.Definitions.push_back({Var, U->getSubExpr(), U});
      }
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *Ref) {
    const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
    if (Var && isLocal(Var) && classify(Ctx, Ref, Var) == Use::Escape)
      Result.Escaped.insert(Var);
    return true;
  }

private:
  void store(const Expr *Target, const Expr *Value, const Stmt *Site,
             bool Mixes) {
    const VarDecl *Var = assignedLocal(Target);
    if (!Var)
      return;
    // x += v gives x the value of the whole expression, x + v, which reads
    // the old value (and the index of an element target).
    if (Mixes) {
      Result.Definitions.push_back({Var, cast<Expr>(Site), Site});
      return;
    }
    Result.Definitions.push_back({Var, Value, Site});
    // An element write mixes the new value into the others, and the index
    // chooses which element: the index matters as well.
    if (!isa<DeclRefExpr>(Target->IgnoreParens()))
      Result.Definitions.push_back({Var, Target, Site});
  }
  ASTContext &Ctx;
};

} // namespace

const VarDecl *assignedLocal(const Expr *E) {
  while (true) {
    E = E->IgnoreParens();
    if (const auto *Cast = dyn_cast<ImplicitCastExpr>(E);
        Cast && (Cast->getCastKind() == CK_NoOp ||
                 Cast->getCastKind() == CK_ArrayToPointerDecay)) {
      E = Cast->getSubExpr();
      continue;
    }
    if (const auto *Sub = dyn_cast<ArraySubscriptExpr>(E)) {
      // Only an array's own elements: `p[i]` stores through a pointer. In a
      // template as written, an array of dependent size is not decayed.
      const Expr *Base = Sub->getBase()->IgnoreParens();
      if (const auto *Decay = dyn_cast<ImplicitCastExpr>(Base);
          Decay && Decay->getCastKind() == CK_ArrayToPointerDecay) {
        E = Decay->getSubExpr();
        continue;
      }
      if (!Base->getType()->isArrayType())
        return nullptr;
      E = Base;
      continue;
    }
    if (const auto *Member = dyn_cast<MemberExpr>(E)) {
      if (Member->isArrow() || !isa<FieldDecl>(Member->getMemberDecl()))
        return nullptr;
      E = Member->getBase();
      continue;
    }
    break;
  }
  const auto *Ref = dyn_cast<DeclRefExpr>(E);
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  return Var && isLocal(Var) ? Var : nullptr;
}

LocalDefinitions collectLocalDefinitions(ASTContext &Ctx, const Stmt *Body) {
  Collector C(Ctx);
  C.TraverseStmt(const_cast<Stmt *>(Body));
  return std::move(C.Result);
}

namespace {
/// The memo that localDefinitionsOf() answers from on this thread: one
/// translation unit is analysed on one thread from start to end.
thread_local LocalDefinitionsMemo *CurrentMemo = nullptr;
} // namespace

LocalDefinitionsMemo::Use::Use(LocalDefinitionsMemo &Memo)
    : Previous(CurrentMemo) {
  CurrentMemo = &Memo;
}

LocalDefinitionsMemo::Use::~Use() { CurrentMemo = Previous; }

std::shared_ptr<const LocalDefinitions> localDefinitionsOf(ASTContext &Ctx,
                                                           const Stmt *Body) {
  if (!CurrentMemo || &CurrentMemo->Ctx != &Ctx)
    return std::make_shared<const LocalDefinitions>(
        collectLocalDefinitions(Ctx, Body));
  std::shared_ptr<const LocalDefinitions> &Known = CurrentMemo->Known[Body];
  if (!Known)
    Known = std::make_shared<const LocalDefinitions>(
        collectLocalDefinitions(Ctx, Body));
  return Known;
}

} // namespace warpfix
