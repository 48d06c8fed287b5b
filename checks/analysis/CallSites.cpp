#include "checks/analysis/CallSites.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringSet.h"

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

} // namespace

class CallSites::Collector : public RecursiveASTVisitor<Collector> {
public:
  Collector(const SourceManager &SM,
            llvm::DenseMap<const FunctionDecl *,
                           std::vector<const Expr *>> &Calls,
            llvm::DenseMap<const FunctionDecl *, SourceLocation> &Escaping,
            llvm::DenseMap<const FunctionDecl *,
                           std::vector<CallSites::Launch>> &Launches,
            llvm::DenseSet<const FunctionDecl *> &Instantiated,
            llvm::DenseMap<const FunctionDecl *, SourceLocation> &Unanalysed)
      : SM(SM), Calls(Calls), Escaping(Escaping), Launches(Launches),
        Instantiated(Instantiated), Unanalysed(Unanalysed) {}

  /// The instantiations of the system headers' templates that the code walked
  /// so far reaches, and those they reach in turn: a library's template runs
  /// the user's functors and kernels there, at call sites that the analyses,
  /// which see the user's code only, cannot judge. Their bodies are walked
  /// for what they call, which is then called from unanalysed code.
  void walkReachedSystemInstantiations() {
    InSystemCode = true;
    while (!Reached.empty()) {
      const FunctionDecl *F = Reached.pop_back_val();
      TraverseDecl(const_cast<FunctionDecl *>(F));
    }
    InSystemCode = false;
  }

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
    // In unanalysed code, VisitCallExpr records the launch as a call.
    if (Kernel && !InSystemCode && Config && Config->getNumArgs() > 1)
      for (const FunctionDecl *F : asWritten(Kernel))
        Launches[F].push_back({Config->getArg(1), Launch->getBeginLoc()});
    return true;
  }

  bool VisitCallExpr(CallExpr *Call) {
    recordLaunchThroughApi(Call);
    recordQueryThroughApi(Call);
    if (const FunctionDecl *Callee = Call->getDirectCallee()) {
      record(Callee, Call);
      if (const auto *Ref = dyn_cast<DeclRefExpr>(
              Call->getCallee()->IgnoreParenImpCasts()))
        DirectCallees.insert(Ref);
    }
    return true;
  }

  /// A constructor runs where its object is made: `T(x)`, `T t(x)`, `new T`,
  /// and a base or member initializer.
  bool VisitCXXConstructExpr(CXXConstructExpr *Construct) {
    record(Construct->getConstructor(), Construct);
    return true;
  }

  /// A destructor runs where its temporary or its variable ends, with no
  /// call in the tree: followed into a library's template all the same.
  bool VisitCXXBindTemporaryExpr(CXXBindTemporaryExpr *Bind) {
    if (const CXXDestructorDecl *D = Bind->getTemporary()->getDestructor())
      reach(D);
    return true;
  }
  bool VisitVarDecl(VarDecl *Var) {
    if (const CXXRecordDecl *Class = Var->getType()->getAsCXXRecordDecl())
      if (Class->hasDefinition())
        if (const CXXDestructorDecl *D = Class->getDestructor())
          reach(D);
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr *Ref) {
    if (const auto *F = dyn_cast<FunctionDecl>(Ref->getDecl())) {
      References.push_back({Ref, F});
      reach(F);
    }
    return true;
  }

  /// cudaLaunchKernel(k, grid, block, ...) and its cooperative twin, and
  /// cudaLaunchKernelEx(&config, k, ...), whose block is config.blockDim.
  void recordLaunchThroughApi(const CallExpr *Call) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee || !Callee->getIdentifier() || Call->getNumArgs() < 2)
      return;
    llvm::StringRef Name = Callee->getName();
    bool ThroughConfig =
        Name == "cudaLaunchKernelEx" || Name == "cudaLaunchKernelExC";
    if (!ThroughConfig &&
        (Call->getNumArgs() < 3 ||
         (Name != "cudaLaunchKernel" && Name != "cudaLaunchCooperativeKernel")))
      return;
    const Expr *Target = Call->getArg(ThroughConfig ? 1 : 0)->IgnoreParenCasts();
    if (const auto *AddrOf = dyn_cast<UnaryOperator>(Target);
        AddrOf && AddrOf->getOpcode() == UO_AddrOf)
      Target = AddrOf->getSubExpr()->IgnoreParenCasts();
    const auto *Ref = dyn_cast<DeclRefExpr>(Target);
    const auto *Kernel = Ref ? dyn_cast<FunctionDecl>(Ref->getDecl()) : nullptr;
    if (!Kernel)
      return;
    // The kernel's address goes to a launch that is recorded: not an escape.
    DirectCallees.insert(Ref);
    if (InSystemCode) {
      calledInSystemCode(Kernel, Call->getBeginLoc());
      return;
    }
    for (const FunctionDecl *F : asWritten(Kernel))
      Launches[F].push_back({Call->getArg(ThroughConfig ? 0 : 2),
                             Call->getBeginLoc(), ThroughConfig});
  }

  /// The runtime's calls that read or set a kernel's attributes, or
  /// compute its occupancy, take its address and launch nothing: not an
  /// escape. Every other use of a kernel's address may launch it with a
  /// block that warpfix never sees (a pointer, a table, cudaLaunchKernelEx).
  void recordQueryThroughApi(const CallExpr *Call) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee || !Callee->getIdentifier())
      return;
    static const llvm::StringSet<> Queries = {
        "cudaFuncSetAttribute",
        "cudaFuncGetAttributes",
        "cudaFuncSetCacheConfig",
        "cudaFuncSetSharedMemConfig",
        "cudaFuncGetName",
        "cudaOccupancyMaxActiveBlocksPerMultiprocessor",
        "cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags",
        "cudaOccupancyAvailableDynamicSMemPerBlock",
        "cudaOccupancyMaxPotentialBlockSize",
        "cudaOccupancyMaxPotentialBlockSizeWithFlags",
        "cudaOccupancyMaxPotentialBlockSizeVariableSMem",
        "cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags"};
    if (!Queries.contains(Callee->getName()))
      return;
    for (const Expr *Arg : Call->arguments()) {
      const Expr *Target = Arg->IgnoreParenCasts();
      if (const auto *AddrOf = dyn_cast<UnaryOperator>(Target);
          AddrOf && AddrOf->getOpcode() == UO_AddrOf)
        Target = AddrOf->getSubExpr()->IgnoreParenCasts();
      if (const auto *Ref = dyn_cast<DeclRefExpr>(Target))
        if (isa<FunctionDecl>(Ref->getDecl()))
          DirectCallees.insert(Ref);
    }
  }

  /// A call or construction of Callee at Site.
  void record(const FunctionDecl *Callee, const Expr *Site) {
    if (InSystemCode) {
      calledInSystemCode(Callee, Site->getBeginLoc());
      return;
    }
    for (const FunctionDecl *F : asWritten(Callee))
      Calls[F].push_back(Site);
    reach(Callee);
  }

  void calledInSystemCode(const FunctionDecl *Callee, SourceLocation Where) {
    for (const FunctionDecl *F : asWritten(Callee))
      Unanalysed.try_emplace(F, Where);
    reach(Callee);
  }

  /// Queues F's body when F is an instantiation of a system header's
  /// template: it was made for this unit, possibly for the user's types.
  /// Everything else in those headers was written without the user's code
  /// and cannot name it (a declaration of the user's function there counts
  /// as a caller in CallSites::calledFromUnanalysedCode).
  void reach(const FunctionDecl *F) {
    const FunctionDecl *Definition = nullptr;
    if (!F->isTemplateInstantiation() || !F->getBody(Definition) ||
        !SM.isInSystemHeader(SM.getExpansionLoc(Definition->getLocation())) ||
        !Queued.insert(Definition).second)
      return;
    Reached.push_back(Definition);
  }

  void finish() {
    for (auto [Ref, F] : References)
      if (!DirectCallees.contains(Ref))
        for (const FunctionDecl *Target : asWritten(F))
          Escaping.try_emplace(Target, Ref->getBeginLoc());
  }

private:
  const SourceManager &SM;
  llvm::DenseMap<const FunctionDecl *, std::vector<const Expr *>> &Calls;
  llvm::DenseMap<const FunctionDecl *, SourceLocation> &Escaping;
  llvm::DenseMap<const FunctionDecl *, std::vector<CallSites::Launch>>
      &Launches;
  llvm::DenseSet<const FunctionDecl *> &Instantiated;
  llvm::DenseMap<const FunctionDecl *, SourceLocation> &Unanalysed;
  bool InSystemCode = false;
  llvm::SmallVector<const FunctionDecl *, 16> Reached;
  llvm::DenseSet<const FunctionDecl *> Queued;
  llvm::DenseSet<const DeclRefExpr *> DirectCallees;
  std::vector<std::pair<const DeclRefExpr *, const FunctionDecl *>> References;
};

CallSites::Gatherer::Gatherer(ASTContext &Ctx)
    : Sites(new CallSites(Ctx.getSourceManager())),
      Visitor(std::make_unique<Collector>(
          Sites->SM, Sites->Calls, Sites->Escaping, Sites->Launches,
          Sites->Instantiated, Sites->Unanalysed)) {}

CallSites::Gatherer::~Gatherer() = default;

// The nodes RecursiveASTVisitor would visit, with the Visit methods it would
// call, base class first.
void CallSites::Gatherer::enter(const Decl &D) {
  if (const auto *F = dyn_cast<FunctionDecl>(&D))
    Visitor->VisitFunctionDecl(const_cast<FunctionDecl *>(F));
  else if (const auto *Var = dyn_cast<VarDecl>(&D))
    Visitor->VisitVarDecl(const_cast<VarDecl *>(Var));
}

void CallSites::Gatherer::enter(const Stmt &S) {
  Stmt *Node = const_cast<Stmt *>(&S);
  if (auto *Call = dyn_cast<CallExpr>(Node)) {
    Visitor->VisitCallExpr(Call);
    if (auto *Launch = dyn_cast<CUDAKernelCallExpr>(Call))
      Visitor->VisitCUDAKernelCallExpr(Launch);
  } else if (auto *Construct = dyn_cast<CXXConstructExpr>(Node)) {
    Visitor->VisitCXXConstructExpr(Construct);
  } else if (auto *Bind = dyn_cast<CXXBindTemporaryExpr>(Node)) {
    Visitor->VisitCXXBindTemporaryExpr(Bind);
  } else if (auto *Ref = dyn_cast<DeclRefExpr>(Node)) {
    Visitor->VisitDeclRefExpr(Ref);
  }
}

CallSites CallSites::Gatherer::finish() {
  Visitor->walkReachedSystemInstantiations();
  Visitor->finish();
  Visitor.reset();
  return std::move(*Sites);
}

std::optional<std::string>
CallSites::implicitCallers(const FunctionDecl *F) {
  if (isa<CXXDestructorDecl>(F))
    return std::string("it is a destructor, which runs where its object's "
                       "scope ends or where it is deleted, places that "
                       "warpfix does not follow");
  if (const auto *Method = dyn_cast<CXXMethodDecl>(F); Method &&
      (Method->isVirtual() || Method->size_overridden_methods() > 0))
    return std::string("it is virtual, and a call through a base class "
                       "dispatches to it from places that warpfix does not "
                       "follow");
  return std::nullopt;
}

std::optional<SourceLocation>
CallSites::calledFromUnanalysedCode(const FunctionDecl *F) const {
  auto It = Unanalysed.find(F->getCanonicalDecl());
  if (It != Unanalysed.end())
    return It->second;
  // Declared in a system header as well: that header's code may call it.
  for (const FunctionDecl *Redeclaration : F->redecls())
    if (SM.isInSystemHeader(SM.getExpansionLoc(Redeclaration->getLocation())))
      return Redeclaration->getLocation();
  return std::nullopt;
}

const std::vector<const Expr *> &
CallSites::of(const FunctionDecl *F) const {
  auto It = Calls.find(F->getCanonicalDecl());
  return It == Calls.end() ? None : It->second;
}

const Expr *CallSites::argumentFor(const Expr *Site, const ParmVarDecl *Param) {
  unsigned Index = Param->getFunctionScopeIndex();
  if (const auto *Call = dyn_cast<CallExpr>(Site)) {
    if (isa<CXXOperatorCallExpr>(Call) &&
        isa<CXXMethodDecl>(Param->getDeclContext()))
      return nullptr;
    return Index < Call->getNumArgs() ? Call->getArg(Index) : nullptr;
  }
  const auto *Construct = cast<CXXConstructExpr>(Site);
  return Index < Construct->getNumArgs() ? Construct->getArg(Index) : nullptr;
}

const std::vector<CallSites::Launch> &
CallSites::launchesOf(const FunctionDecl *Kernel) const {
  auto It = Launches.find(Kernel->getCanonicalDecl());
  return It == Launches.end() ? NoLaunches : It->second;
}

} // namespace warpfix
