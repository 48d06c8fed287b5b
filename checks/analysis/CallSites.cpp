#include "checks/analysis/CallSites.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace warpfix {
namespace {

class Collector : public RecursiveASTVisitor<Collector> {
public:
  Collector(llvm::DenseMap<const FunctionDecl *,
                           std::vector<const CallExpr *>> &Calls,
            llvm::DenseSet<const FunctionDecl *> &Escaping)
      : Calls(Calls), Escaping(Escaping) {}

  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return true; }

  bool VisitCallExpr(CallExpr *Call) {
    if (const FunctionDecl *Callee = Call->getDirectCallee()) {
      Calls[Callee->getCanonicalDecl()].push_back(Call);
      if (const auto *Ref = dyn_cast<DeclRefExpr>(
              Call->getCallee()->IgnoreParenImpCasts()))
        DirectCallees.insert(Ref);
    }
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr *Ref) {
    if (const auto *F = dyn_cast<FunctionDecl>(Ref->getDecl()))
      References.push_back({Ref, F});
    return true;
  }

  void finish() {
    for (auto [Ref, F] : References)
      if (!DirectCallees.contains(Ref))
        Escaping.insert(F->getCanonicalDecl());
  }

private:
  llvm::DenseMap<const FunctionDecl *, std::vector<const CallExpr *>> &Calls;
  llvm::DenseSet<const FunctionDecl *> &Escaping;
  llvm::DenseSet<const DeclRefExpr *> DirectCallees;
  std::vector<std::pair<const DeclRefExpr *, const FunctionDecl *>> References;
};

} // namespace

CallSites::CallSites(ASTContext &Ctx) {
  Collector C(Calls, Escaping);
  C.TraverseDecl(Ctx.getTranslationUnitDecl());
  C.finish();
}

const std::vector<const CallExpr *> &
CallSites::of(const FunctionDecl *F) const {
  auto It = Calls.find(F->getCanonicalDecl());
  return It == Calls.end() ? None : It->second;
}

} // namespace warpfix
