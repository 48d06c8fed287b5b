#include "checks/analysis/ThreadCoupling.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"

using namespace clang;

namespace warpfix {
namespace {

/// The toolkit's operations that wait for other threads, or tell which
/// threads are there.
bool couplesThreads(const FunctionDecl &Callee, CouplingKind Kind) {
  if (!Callee.getIdentifier())
    return false;
  llvm::StringRef Name = Callee.getName();
  bool Qualified = llvm::StringRef(Callee.getQualifiedNameAsString())
                       .contains("cooperative_groups");
  if (Name.starts_with("__syncthreads") || Name == "__barrier_sync" ||
      Name.starts_with("__nvvm_") || Qualified)
    return true;
  return Kind == CouplingKind::AnyThreads &&
         (Name == "__activemask" || Name == "__syncwarp" ||
          Name.ends_with("_sync") || Name == "__shfl" ||
          Name.starts_with("__shfl_") || Name == "__ballot" ||
          Name == "__any" || Name == "__all");
}

class CouplingCode : public RecursiveASTVisitor<CouplingCode> {
public:
  CouplingCode(ASTContext &Ctx, CouplingKind Kind) : Ctx(Ctx), Kind(Kind) {}
  std::optional<ThreadCoupling> Found;
  bool shouldVisitImplicitCode() const { return true; }

  bool VisitAsmStmt(AsmStmt *Asm) {
    stop("inline PTX", Asm->getAsmLoc());
    return false;
  }
  bool VisitCallExpr(CallExpr *Call) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Callee);
    if (!Callee) {
      if (!isa<CXXPseudoDestructorExpr>(Call->getCallee()->IgnoreParens()))
        stop("a call through a pointer", Call->getBeginLoc());
    } else if (Method && Method->isVirtual() && !Method->hasAttr<FinalAttr>() &&
               !Method->getParent()->hasAttr<FinalAttr>()) {
      stop("a virtual call", Call->getBeginLoc());
    } else if (couplesThreads(*Callee, Kind)) {
      stop("'" + Callee->getNameAsString() + "'", Call->getBeginLoc());
    } else {
      function(*Callee, Call->getBeginLoc());
    }
    return !Found;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *Construct) {
    if (!Construct->getConstructor()->isTrivial())
      function(*Construct->getConstructor(), Construct->getBeginLoc());
    return !Found;
  }

private:
  void function(const FunctionDecl &F, SourceLocation At) {
    // The toolkit's own functions were judged by name above.
    if (F.getBuiltinID() ||
        Ctx.getSourceManager().isInSystemHeader(F.getLocation()))
      return;
    const FunctionDecl *Definition = nullptr;
    if (!F.hasBody(Definition)) {
      stop("a call of a function whose body is not in sight", At);
      return;
    }
    if (!Visited.insert(Definition).second)
      return;
    if (++Depth > 8)
      stop("calls that nest too deep to follow", At);
    else
      TraverseStmt(Definition->getBody());
    --Depth;
  }
  void stop(std::string What, SourceLocation Where) {
    if (!Found)
      Found = ThreadCoupling{std::move(What), Where};
  }
  ASTContext &Ctx;
  CouplingKind Kind;
  llvm::DenseSet<const FunctionDecl *> Visited;
  unsigned Depth = 0;
};

} // namespace

std::optional<ThreadCoupling> threadCouplingIn(const Stmt *S, ASTContext &Ctx,
                                               CouplingKind Kind) {
  CouplingCode Code(Ctx, Kind);
  Code.TraverseStmt(const_cast<Stmt *>(S));
  return Code.Found;
}

} // namespace warpfix
