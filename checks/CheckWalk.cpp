#include "checks/CheckWalk.h"
#include "checks/analysis/CallSites.h"

using namespace clang;

namespace warpfix {

void CheckWalk::enter(const Decl &D) {
  Sites.enter(D);
  if (isa<NamedDecl>(D))
    Nodes.push_back(&D);
}

void CheckWalk::enter(const Stmt &S) {
  Sites.enter(S);
  if (isa<CallExpr, AsmStmt, BinaryOperator, DeclRefExpr>(S))
    Nodes.push_back(&S);
}

void CheckWalk::run(ParentIndex &Parents, CheckContext &Context,
                    llvm::ArrayRef<std::unique_ptr<Check>> Checks) {
  ASTContext &Ctx = Parents.context();
  CheckWalk Walk(Context.gatherCallSites(Ctx));
  Parents.buildShowing(Walk);
  for (const auto &C : Checks)
    C->onTranslationUnit(Ctx);
  for (auto Node : Walk.Nodes) {
    if (const auto *D = Node.dyn_cast<const Decl *>()) {
      if (const auto *F = dyn_cast<FunctionDecl>(D)) {
        for (const auto &C : Checks)
          C->onFunction(*F, Ctx);
      } else if (const auto *Var = dyn_cast<VarDecl>(D)) {
        for (const auto &C : Checks)
          C->onVariable(*Var, Ctx);
      } else {
        for (const auto &C : Checks)
          C->onOtherDeclaration(cast<NamedDecl>(*D), Ctx);
      }
      continue;
    }
    const Stmt *S = Node.get<const Stmt *>();
    if (const auto *Call = dyn_cast<CallExpr>(S)) {
      for (const auto &C : Checks)
        C->onCall(*Call, Ctx);
    } else if (const auto *Asm = dyn_cast<AsmStmt>(S)) {
      for (const auto &C : Checks)
        C->onAsm(*Asm, Ctx);
    } else if (const auto *Operator = dyn_cast<BinaryOperator>(S)) {
      for (const auto &C : Checks)
        C->onBinaryOperator(*Operator, Ctx);
    } else {
      for (const auto &C : Checks)
        C->onDeclRef(cast<DeclRefExpr>(*S), Ctx);
    }
  }
  for (const auto &C : Checks)
    C->onEndOfTranslationUnit();
}

} // namespace warpfix
