#include "checks/analysis/ThreadIdentity.h"
#include "checks/analysis/Parents.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/DenseSet.h"

using namespace clang;

namespace warpfix {

/// How deep a value is followed through expressions, variables and calls.
static constexpr unsigned MaxDepth = 24;

bool ThreadIdentity::of(const Stmt *S, unsigned Depth) {
  if (!S || Depth > MaxDepth)
    return false;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(S))
    if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl())) {
      if (const Expr *Value = lastAssignedValue(*Ref, *Var))
        return of(Value, Depth + 1);
      return ofVariable(Var, Depth);
    }
  // threadIdx.x is a property whose object is an opaque value, which lists
  // no children.
  if (const auto *Opaque = dyn_cast<OpaqueValueExpr>(S))
    return of(Opaque->getSourceExpr(), Depth + 1);
  if (const auto *Call = dyn_cast<CallExpr>(S))
    if (const FunctionDecl *Callee = Call->getDirectCallee();
        Callee && Callee->getIdentifier() &&
        Callee->getName().contains_insensitive("atomic"))
      return true;
  for (const Stmt *Child : S->children())
    if (of(Child, Depth + 1))
      return true;
  return false;
}

bool ThreadIdentity::ofVariable(const VarDecl *Var, unsigned Depth) {
  if (Var->getName() == "threadIdx" && Var->hasGlobalStorage())
    return true;
  auto [Known, Inserted] = Variables.try_emplace(Var, false);
  if (!Inserted)
    return Known->second;
  bool Result = false;
  const auto *F = dyn_cast<FunctionDecl>(Var->getDeclContext());
  if (const auto *Param = dyn_cast<ParmVarDecl>(Var)) {
    // A kernel's parameters are the launch's, the same for every thread.
    if (F && !F->hasAttr<CUDAGlobalAttr>() && !Calls.callersUnseen(F))
      for (const Expr *Site : Calls.of(F))
        Result |= of(CallSites::argumentFor(Site, Param), Depth + 1);
  } else if (F && Var->hasLocalStorage()) {
    Result = of(Var->getInit(), Depth + 1) ||
             assignedFromIdentity(Var, F->getBody(), Depth);
  }
  Variables[Var] = Result;
  return Result;
}

bool ThreadIdentity::assignedFromIdentity(const VarDecl *Var, const Stmt *Body,
                                          unsigned Depth) {
  if (!Body)
    return false;
  if (const auto *Assign = dyn_cast<BinaryOperator>(Body);
      Assign && Assign->isAssignmentOp())
    if (const auto *Target =
            dyn_cast<DeclRefExpr>(Assign->getLHS()->IgnoreParenImpCasts());
        Target && Target->getDecl() == Var && of(Assign->getRHS(), Depth + 1))
      return true;
  for (const Stmt *Child : Body->children())
    if (assignedFromIdentity(Var, Child, Depth))
      return true;
  return false;
}

/// Whether S may change Var, or lets something else change it later: an
/// assignment, an increment, its address or a reference to it taken.
static bool mayChange(const Stmt *S, const VarDecl &Var) {
  class Finder : public RecursiveASTVisitor<Finder> {
  public:
    explicit Finder(const VarDecl &Var) : Var(Var) {}
    bool Found = false;
    bool VisitDeclRefExpr(DeclRefExpr *Ref) {
      // Every use but a plain read (an lvalue-to-rvalue conversion) may
      // write it: an assignment's target, `&v`, a reference argument.
      Found |= Ref->getDecl() == &Var && !Reads.contains(Ref);
      return !Found;
    }
    bool VisitImplicitCastExpr(ImplicitCastExpr *Cast) {
      if (Cast->getCastKind() == CK_LValueToRValue)
        if (const auto *Ref =
                dyn_cast<DeclRefExpr>(Cast->getSubExpr()->IgnoreParens()))
          Reads.insert(Ref);
      return true;
    }
    // Statements that jump into the code between the assignment and the
    // read.
    bool VisitLabelStmt(LabelStmt *) { return !(Found = true); }
    bool VisitSwitchCase(SwitchCase *) { return !(Found = true); }

  private:
    const VarDecl &Var;
    llvm::DenseSet<const DeclRefExpr *> Reads;
  };
  Finder Changes(Var);
  Changes.TraverseStmt(const_cast<Stmt *>(S));
  return Changes.Found;
}

const Expr *ThreadIdentity::lastAssignedValue(const DeclRefExpr &Ref,
                                              const VarDecl &Var) {
  if (!Var.hasLocalStorage() || isa<ParmVarDecl>(Var) ||
      Var.getType()->isReferenceType())
    return nullptr;
  const Stmt *Child = &Ref;
  for (const Stmt *Up = parentStmt(Ctx, &Ref); Up;
       Child = Up, Up = parentStmt(Ctx, Up)) {
    // From a loop's end, its next iteration brings the values of its body.
    if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(Up))
      return nullptr;
    const auto *Block = dyn_cast<CompoundStmt>(Up);
    if (!Block)
      continue;
    // The statement that holds the read may assign the variable before it.
    if (mayChange(Child, Var))
      return nullptr;
    auto Holder = llvm::find(Block->body(), Child);
    for (auto Earlier = std::make_reverse_iterator(Holder);
         Earlier != Block->body_rend(); ++Earlier) {
      if (const auto *Assign = dyn_cast<BinaryOperator>(*Earlier);
          Assign && Assign->getOpcode() == BO_Assign)
        if (const auto *Target =
                dyn_cast<DeclRefExpr>(Assign->getLHS()->IgnoreParens());
            Target && Target->getDecl() == &Var &&
            !mayChange(Assign->getRHS(), Var))
          return Assign->getRHS();
      if (mayChange(*Earlier, Var))
        return nullptr;
    }
  }
  return nullptr;
}

} // namespace warpfix
