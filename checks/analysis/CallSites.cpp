#include "checks/analysis/CallSites.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace warpfix {
namespace {

/// F, and the template it was instantiated from: a call of `f<4>` is also a
/// call of `f` as written, which is analysed for every instantiation at once.
llvm::SmallVector<const FunctionDecl *, 2> asWritten(const FunctionDecl *F) {
  llvm::SmallVector<const FunctionDecl *, 2> Targets = {F->getCanonicalDecl()};
  if (const FunctionDecl *Pattern = F->getTemplateInstantiationPattern())
    if (Pattern->getCanonicalDecl() != Targets.front())
      Targets.push_back(Pattern->getCanonicalDecl());
  return Targets;
}

class Collector : public RecursiveASTVisitor<Collector> {
public:
  Collector(llvm::DenseMap<const FunctionDecl *,
                           std::vector<const Expr *>> &Calls,
            llvm::DenseSet<const FunctionDecl *> &Escaping,
            llvm::DenseMap<const FunctionDecl *,
                           std::vector<CallSites::Launch>> &Launches,
            llvm::DenseSet<const FunctionDecl *> &Instantiated)
      : Calls(Calls), Escaping(Escaping), Launches(Launches),
        Instantiated(Instantiated) {}

  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return true; }

  /// An instantiated body is a copy of its pattern's: the pattern's own
  /// statements are then analysed in each copy. A declaration alone (a use
  /// in an unevaluated operand, `extern template`) copies no body, and an
  /// explicit specialization is code of its own, not a copy.
  bool VisitFunctionDecl(FunctionDecl *F) {
    if (F->isTemplateInstantiation() && F->doesThisDeclarationHaveABody())
      if (const FunctionDecl *Pattern = F->getTemplateInstantiationPattern())
        Instantiated.insert(Pattern->getCanonicalDecl());
    return true;
  }

  bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *Launch) {
    const FunctionDecl *Kernel = Launch->getDirectCallee();
    const CallExpr *Config = Launch->getConfig();
    if (Kernel && Config && Config->getNumArgs() > 1)
      for (const FunctionDecl *F : asWritten(Kernel))
        Launches[F].push_back({Config->getArg(1), Launch->getBeginLoc()});
    return true;
  }

  bool VisitCallExpr(CallExpr *Call) {
    recordLaunchThroughApi(Call);
    if (const FunctionDecl *Callee = Call->getDirectCallee()) {
      for (const FunctionDecl *F : asWritten(Callee))
        Calls[F].push_back(Call);
      if (const auto *Ref = dyn_cast<DeclRefExpr>(
              Call->getCallee()->IgnoreParenImpCasts()))
        DirectCallees.insert(Ref);
    }
    return true;
  }

  /// A constructor runs where its object is made: `T(x)`, `T t(x)`, `new T`,
  /// and a base or member initializer.
  bool VisitCXXConstructExpr(CXXConstructExpr *Construct) {
    for (const FunctionDecl *F : asWritten(Construct->getConstructor()))
      Calls[F].push_back(Construct);
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr *Ref) {
    if (const auto *F = dyn_cast<FunctionDecl>(Ref->getDecl()))
      References.push_back({Ref, F});
    return true;
  }

  /// cudaLaunchKernel(k, grid, block, ...) and its cooperative twin.
  void recordLaunchThroughApi(const CallExpr *Call) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee || !Callee->getIdentifier() || Call->getNumArgs() < 3)
      return;
    llvm::StringRef Name = Callee->getName();
    if (Name != "cudaLaunchKernel" && Name != "cudaLaunchCooperativeKernel")
      return;
    const Expr *Target = Call->getArg(0)->IgnoreParenCasts();
    if (const auto *AddrOf = dyn_cast<UnaryOperator>(Target);
        AddrOf && AddrOf->getOpcode() == UO_AddrOf)
      Target = AddrOf->getSubExpr()->IgnoreParenCasts();
    const auto *Ref = dyn_cast<DeclRefExpr>(Target);
    const auto *Kernel = Ref ? dyn_cast<FunctionDecl>(Ref->getDecl()) : nullptr;
    if (!Kernel)
      return;
    // The kernel's address goes to a launch that is recorded: not an escape.
    DirectCallees.insert(Ref);
    for (const FunctionDecl *F : asWritten(Kernel))
      Launches[F].push_back({Call->getArg(2), Call->getBeginLoc()});
  }

  void finish() {
    for (auto [Ref, F] : References)
      if (!DirectCallees.contains(Ref))
        for (const FunctionDecl *Target : asWritten(F))
          Escaping.insert(Target);
  }

private:
  llvm::DenseMap<const FunctionDecl *, std::vector<const Expr *>> &Calls;
  llvm::DenseSet<const FunctionDecl *> &Escaping;
  llvm::DenseMap<const FunctionDecl *, std::vector<CallSites::Launch>>
      &Launches;
  llvm::DenseSet<const FunctionDecl *> &Instantiated;
  llvm::DenseSet<const DeclRefExpr *> DirectCallees;
  std::vector<std::pair<const DeclRefExpr *, const FunctionDecl *>> References;
};

} // namespace

CallSites::CallSites(ASTContext &Ctx) {
  Collector C(Calls, Escaping, Launches, Instantiated);
  C.TraverseDecl(Ctx.getTranslationUnitDecl());
  C.finish();
}

const std::vector<const Expr *> &
CallSites::of(const FunctionDecl *F) const {
  auto It = Calls.find(F->getCanonicalDecl());
  return It == Calls.end() ? None : It->second;
}

llvm::ArrayRef<const Expr *> CallSites::argumentsOf(const Expr *Site) {
  if (const auto *Call = dyn_cast<CallExpr>(Site))
    return {Call->getArgs(), Call->getNumArgs()};
  const auto *Construct = cast<CXXConstructExpr>(Site);
  return {Construct->getArgs(), Construct->getNumArgs()};
}

const std::vector<CallSites::Launch> &
CallSites::launchesOf(const FunctionDecl *Kernel) const {
  auto It = Launches.find(Kernel->getCanonicalDecl());
  return It == Launches.end() ? NoLaunches : It->second;
}

} // namespace warpfix
