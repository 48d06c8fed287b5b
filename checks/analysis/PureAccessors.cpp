#include "checks/analysis/PureAccessors.h"
#include "checks/analysis/Parents.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace warpfix {
namespace {

class PureExpression {
public:
  explicit PureExpression(const FunctionDecl *F) : F(F) {}

  bool operator()(const Expr *E) const {
    E = E->IgnoreParens();
    // A volatile object may change between two lanes' reads.
    if (E->getType().isVolatileQualified())
      return false;
    if (isa<IntegerLiteral, FloatingLiteral, CXXBoolLiteralExpr,
            CharacterLiteral>(E))
      return true;
    if (const auto *Subst = dyn_cast<SubstNonTypeTemplateParmExpr>(E))
      return (*this)(Subst->getReplacement());
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
      return isa<EnumConstantDecl>(Ref->getDecl()) || isOwnParameter(Ref);
    if (const auto *Cast = dyn_cast<CastExpr>(E))
      return isValueConversion(Cast->getCastKind()) &&
             (*this)(Cast->getSubExpr());
    if (isa<MemberExpr, ArraySubscriptExpr>(E))
      return isObject(E);
    if (const auto *U = dyn_cast<UnaryOperator>(E))
      return !U->isIncrementDecrementOp() && U->getOpcode() != UO_AddrOf &&
             (*this)(U->getSubExpr());
    if (const auto *B = dyn_cast<BinaryOperator>(E))
      return !B->isAssignmentOp() && B->getOpcode() != BO_Comma &&
             (*this)(B->getLHS()) && (*this)(B->getRHS());
    if (const auto *C = dyn_cast<ConditionalOperator>(E))
      return (*this)(C->getCond()) && (*this)(C->getTrueExpr()) &&
             (*this)(C->getFalseExpr());
    return false;
  }

private:
  /// What a field access or an element access may read from: the object
  /// itself, its fields and elements, or memory that a pointer among them or
  /// among the parameters points to. An array's decay is allowed only here,
  /// under the access that reads one element.
  bool isObject(const Expr *E) const {
    E = E->IgnoreParens();
    if (E->getType().isVolatileQualified())
      return false;
    if (isa<CXXThisExpr>(E))
      return true;
    if (const auto *Cast = dyn_cast<ImplicitCastExpr>(E);
        Cast && Cast->getCastKind() == CK_ArrayToPointerDecay)
      return isObject(Cast->getSubExpr());
    if (const auto *Member = dyn_cast<MemberExpr>(E))
      return isa<FieldDecl>(Member->getMemberDecl()) &&
             isObject(Member->getBase());
    if (const auto *Sub = dyn_cast<ArraySubscriptExpr>(E))
      return isObject(Sub->getBase()) && (*this)(Sub->getIdx());
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
      return isOwnParameter(Ref);
    // A pointer value loaded from one of the above.
    return E->getType()->isPointerType() && (*this)(E);
  }

  bool isOwnParameter(const DeclRefExpr *Ref) const {
    const auto *Param = dyn_cast<ParmVarDecl>(Ref->getDecl());
    if (!Param || Param->getDeclContext() != F)
      return false;
    QualType Type = Param->getType();
    return !Type->isReferenceType() ||
           Type->getPointeeType().isConstQualified();
  }

  const FunctionDecl *F;
};

} // namespace

bool isValueConversion(CastKind Kind) {
  switch (Kind) {
  case CK_LValueToRValue:
  case CK_NoOp:
  case CK_IntegralCast:
  case CK_IntegralToBoolean:
  case CK_IntegralToFloating:
  case CK_FloatingToIntegral:
  case CK_FloatingToBoolean:
  case CK_FloatingCast:
  case CK_BooleanToSignedIntegral:
    return true;
  default:
    return false;
  }
}

bool isPureAccessor(const FunctionDecl *F) {
  if (!F)
    return false;
  const FunctionDecl *Definition = nullptr;
  if (!F->hasBody(Definition) || !Definition || Definition->isVariadic() ||
      Definition->hasAttr<CUDAGlobalAttr>())
    return false;
  if (const auto *Method = dyn_cast<CXXMethodDecl>(Definition);
      Method && (Method->isVirtual() || Method->isVolatile()))
    return false;
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Definition->getBody());
  if (!Body || Body->size() != 1)
    return false;
  const auto *Return = dyn_cast<ReturnStmt>(Body->body_front());
  if (!Return || !Return->getRetValue())
    return false;
  const Expr *Value = Return->getRetValue();
  if (const auto *Full = dyn_cast<FullExpr>(Value))
    Value = Full->getSubExpr();
  return PureExpression(Definition)(Value);
}

bool isReadOnlyAccessorCall(ASTContext &Ctx, const CallExpr *Call) {
  if (!isPureAccessor(Call->getDirectCallee()))
    return false;
  if (!Call->getCallReturnType(Ctx)->isReferenceType())
    return true;
  const Stmt *Child = Call;
  while (true) {
    DynTypedNodeList Parents = parentsOf(Ctx, *Child);
    const auto *Cast = Parents.empty() ? nullptr : Parents[0].get<Expr>();
    if (const auto *Paren = dyn_cast_or_null<ParenExpr>(Cast)) {
      Child = Paren;
      continue;
    }
    const auto *Load = dyn_cast_or_null<ImplicitCastExpr>(Cast);
    return Load && Load->getCastKind() == CK_LValueToRValue;
  }
}

} // namespace warpfix
