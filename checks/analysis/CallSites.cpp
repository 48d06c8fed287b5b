#include "checks/analysis/CallSites.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringMap.h"
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

/// The functions that Lookup finds, as written, and their instantiations
/// so far. An overloaded operator or a conversion is also reached by
/// operators and casts, which name no function in a template as written:
/// those are left to their other callers.
llvm::SmallVector<const FunctionDecl *, 4>
candidates(const UnresolvedLookupExpr &Lookup) {
  llvm::SmallVector<const FunctionDecl *, 4> Found;
  for (const NamedDecl *D : Lookup.decls()) {
    const NamedDecl *Underlying = D->getUnderlyingDecl();
    if (const auto *Template = dyn_cast<FunctionTemplateDecl>(Underlying)) {
      if (!Template->getTemplatedDecl()->getIdentifier())
        continue;
      Found.push_back(Template->getTemplatedDecl()->getCanonicalDecl());
      for (const FunctionDecl *Instance : Template->specializations())
        Found.push_back(Instance->getCanonicalDecl());
    } else if (const auto *F = dyn_cast<FunctionDecl>(Underlying);
               F && F->getIdentifier()) {
      Found.push_back(F->getCanonicalDecl());
    }
  }
  return Found;
}

} // namespace

class CallSites::Collector : public RecursiveASTVisitor<Collector> {
public:
  /// Fills in Sites.
  explicit Collector(CallSites &Sites)
      : SM(Sites.SM), Calls(Sites.Calls), Escaping(Sites.Escaping),
        Launches(Sites.Launches), Instantiated(Sites.Instantiated),
        Unanalysed(Sites.Unanalysed),
        ReachedUnresolved(Sites.ReachedUnresolved),
        CalledInError(Sites.CalledInError),
        MemberNames(Sites.MemberNames), GrowingLookups(Sites.GrowingLookups) {}

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
    if (const auto *Lookup = dyn_cast_or_null<UnresolvedLookupExpr>(
            Call->getCallee()->IgnoreParens());
        Lookup && inUserCode(Call))
      UnresolvedCalls.push_back({Call, Lookup});
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

  /// A name in a template as written that only an instantiation resolves:
  /// a call whose arguments depend on the template's parameters, a function
  /// named among overloads, `P::f`, `obj.f`.
  bool VisitUnresolvedLookupExpr(UnresolvedLookupExpr *Lookup) {
    if (inUserCode(Lookup))
      UnresolvedNames.push_back(Lookup);
    return true;
  }
  bool VisitDependentName(const Expr *E, DeclarationName Name) {
    if (inUserCode(E) && Name.isIdentifier())
      MemberReferences.push_back({E, Name.getAsIdentifierInfo()->getName()});
    return true;
  }

  /// The calls and references of the templates as written whose target
  /// only an instantiation decides. Such a call counts as a call of every
  /// function that its name finds where it is written, and of each of their
  /// instantiations, where no instantiation here holds it: in a template
  /// that nothing here instantiates, and in a branch of `if constexpr`,
  /// which this unit's instantiations may discard and others keep. (Where
  /// this unit's instantiations hold the call, they judge it, with the
  /// values of the parameters.) A call outside any function (a
  /// default member initializer) makes the callers of what it finds
  /// unknown, and a name taken other than as a callee escapes, as a
  /// function's address does. In a template that nothing here instantiates,
  /// a name may also reach what its lookup does not list: a function that
  /// argument-dependent lookup adds at an instantiation, a member that
  /// `P::f` or `obj.f` names (CallSites::reachedUnresolved).
  void recordUnresolvedReferences(ASTContext &Ctx) {
    llvm::DenseSet<const UnresolvedLookupExpr *> Callees;
    for (auto [Call, Lookup] : UnresolvedCalls) {
      Callees.insert(Lookup);
      // A call that clang's recovery kept with an error in it (an argument
      // that names nothing) reaches its target from lanes that the error
      // hides.
      if (Call->containsErrors()) {
        for (const FunctionDecl *Target : candidates(*Lookup))
          CalledInError.try_emplace(Target, Call->getBeginLoc());
        continue;
      }
      const FunctionDecl *Caller = enclosingFunction(Ctx, Call);
      if (!inUninstantiatedTemplate(Caller) && !underConstexprIf(Ctx, Call))
        continue;
      for (const FunctionDecl *Target : candidates(*Lookup)) {
        if (Caller)
          Calls[Target].push_back(Call);
        else
          ReachedUnresolved.try_emplace(Target, Call->getBeginLoc());
      }
      if (inUninstantiatedTemplate(Caller) && lookupMayGrow(*Call, *Lookup) &&
          Lookup->getName().isIdentifier())
        GrowingLookups[Lookup->getName().getAsIdentifierInfo()->getName()]
            .push_back(Lookup);
    }
    for (const UnresolvedLookupExpr *Lookup : UnresolvedNames) {
      if (Callees.contains(Lookup))
        continue;
      bool Recovered = inRecoveredError(Ctx, Lookup);
      for (const FunctionDecl *Target : candidates(*Lookup))
        (Recovered ? CalledInError : Escaping)
            .try_emplace(Target, Lookup->getBeginLoc());
    }
    for (auto [Reference, Name] : MemberReferences)
      if (inUninstantiatedTemplate(enclosingFunction(Ctx, Reference)))
        MemberNames.try_emplace(Name, Reference->getBeginLoc());
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
  llvm::DenseMap<const FunctionDecl *, SourceLocation> &ReachedUnresolved;
  llvm::DenseMap<const FunctionDecl *, SourceLocation> &CalledInError;
  llvm::StringMap<SourceLocation> &MemberNames;
  llvm::StringMap<std::vector<const UnresolvedLookupExpr *>> &GrowingLookups;
  bool InSystemCode = false;
  llvm::SmallVector<const FunctionDecl *, 16> Reached;
  llvm::DenseSet<const FunctionDecl *> Queued;
  llvm::DenseSet<const DeclRefExpr *> DirectCallees;
  std::vector<std::pair<const DeclRefExpr *, const FunctionDecl *>> References;
  std::vector<std::pair<const CallExpr *, const UnresolvedLookupExpr *>>
      UnresolvedCalls;
  std::vector<const UnresolvedLookupExpr *> UnresolvedNames;
  std::vector<std::pair<const Expr *, llvm::StringRef>> MemberReferences;

  /// Code that runs here only as the template it is written in: no
  /// function around it (a default member initializer), or a template
  /// that nothing here instantiates.
  bool inUninstantiatedTemplate(const FunctionDecl *F) const {
    return !F || (F->isDependentContext() &&
                  !Instantiated.contains(F->getCanonicalDecl()));
  }

  /// Whether E is the callee of a call that clang could not resolve and
  /// kept as an error (a RecoveryExpr: no overload takes those arguments).
  /// Once the user mends it, it calls one of the functions its name finds,
  /// from lanes that nothing here can tell.
  static bool inRecoveredError(ASTContext &Ctx, const Expr *E) {
    DynTypedNodeList Parents = parentsOf(Ctx, *E);
    return !Parents.empty() && Parents[0].get<RecoveryExpr>();
  }

  /// Whether S lies in a branch of an `if constexpr` of its function.
  static bool underConstexprIf(ASTContext &Ctx, const Stmt *S) {
    for (DynTypedNodeList Parents = parentsOf(Ctx, *S); !Parents.empty();
         Parents = parentsOf(Ctx, Parents[0])) {
      if (Parents[0].get<Decl>())
        return false;
      if (const auto *If = Parents[0].get<IfStmt>(); If && If->isConstexpr())
        return true;
    }
    return false;
  }

  bool inUserCode(const Expr *E) const {
    return !InSystemCode &&
           !SM.isInSystemHeader(SM.getExpansionLoc(E->getBeginLoc()));
  }
};

CallSiteGatherer::CallSiteGatherer(ASTContext &Ctx)
    : Ctx(Ctx), Sites(new CallSites(Ctx.getSourceManager())),
      Visitor(std::make_unique<CallSites::Collector>(*Sites)) {}

CallSiteGatherer::~CallSiteGatherer() = default;

// The nodes RecursiveASTVisitor would visit, with the Visit methods it would
// call, base class first.
void CallSiteGatherer::enter(const Decl &D) {
  if (const auto *F = dyn_cast<FunctionDecl>(&D))
    Visitor->VisitFunctionDecl(const_cast<FunctionDecl *>(F));
  else if (const auto *Var = dyn_cast<VarDecl>(&D))
    Visitor->VisitVarDecl(const_cast<VarDecl *>(Var));
}

void CallSiteGatherer::enter(const Stmt &S) {
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
  } else if (auto *Lookup = dyn_cast<UnresolvedLookupExpr>(Node)) {
    Visitor->VisitUnresolvedLookupExpr(Lookup);
  } else if (const auto *Scoped = dyn_cast<DependentScopeDeclRefExpr>(Node)) {
    Visitor->VisitDependentName(Scoped, Scoped->getDeclName());
  } else if (const auto *Member = dyn_cast<CXXDependentScopeMemberExpr>(Node)) {
    Visitor->VisitDependentName(Member, Member->getMember());
  } else if (const auto *Member = dyn_cast<UnresolvedMemberExpr>(Node)) {
    Visitor->VisitDependentName(Member, Member->getMemberName());
  }
}

CallSites CallSiteGatherer::finish() {
  Visitor->walkReachedSystemInstantiations();
  Visitor->recordUnresolvedReferences(Ctx);
  Visitor->finish();
  Visitor.reset();
  return std::move(*Sites);
}

std::optional<SourceLocation>
CallSites::reachedUnresolved(const FunctionDecl *F) const {
  if (auto Known = placeOf(ReachedUnresolved, F))
    return Known;
  if (!F->getIdentifier())
    return std::nullopt;
  // `P::f` and `obj.f` name members; argument-dependent lookup finds
  // functions of namespaces (and friends defined in classes).
  if (isa<CXXMethodDecl>(F)) {
    auto Member = MemberNames.find(F->getName());
    if (Member != MemberNames.end())
      return Member->second;
    return std::nullopt;
  }
  auto Growing = GrowingLookups.find(F->getName());
  if (Growing == GrowingLookups.end())
    return std::nullopt;
  const FunctionDecl *Written = F;
  if (const FunctionTemplateDecl *Primary = F->getPrimaryTemplate())
    Written = Primary->getTemplatedDecl();
  for (const UnresolvedLookupExpr *Lookup : Growing->second)
    if (!llvm::is_contained(candidates(*Lookup), Written->getCanonicalDecl()))
      return Lookup->getBeginLoc();
  return std::nullopt;
}

bool CallSites::lookupMayGrow(const CallExpr &Call,
                              const UnresolvedLookupExpr &Lookup) {
  if (!Lookup.requiresADL())
    return false;
  return llvm::any_of(Call.arguments(), [](const Expr *Argument) {
    if (Argument->isTypeDependent())
      return true;
    const Type *Named =
        Argument->getType().getNonReferenceType().getTypePtrOrNull();
    while (Named && (Named->isPointerType() || Named->isArrayType()))
      Named = Named->getPointeeOrArrayElementType();
    return !Named || Named->isDependentType() || !Named->isBuiltinType();
  });
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
  if (auto Known = placeOf(Unanalysed, F))
    return Known;
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
