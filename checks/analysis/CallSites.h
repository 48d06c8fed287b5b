// Who calls whom in one translation unit: the device functions' call sites,
// which the lane-dependence and membership analyses follow into callers.
#ifndef WARPFIX_CHECKS_ANALYSIS_CALLSITES_H
#define WARPFIX_CHECKS_ANALYSIS_CALLSITES_H

#include "checks/analysis/Parents.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace warpfix {

class CallSites {
  class Collector;
  friend class CallSiteGatherer;

public:
  /// Direct calls of F (template instantiations included): each a CallExpr,
  /// or a CXXConstructExpr where F is a constructor. Empty when F is never
  /// called directly here. In a template that this unit does not
  /// instantiate, or in a branch of `if constexpr`, a call whose target its
  /// arguments decide counts as a call of each function its name finds, and
  /// of their instantiations (then getDirectCallee() is null).
  const std::vector<const clang::Expr *> &
  of(const clang::FunctionDecl *F) const;

  /// What a call site of of() passes for Param, or null where the call does
  /// not line its arguments up with the parameters: too few of them, or a
  /// member operator's call, which lists its object first (C++23 `static
  /// operator()` included).
  static const clang::Expr *argumentFor(const clang::Expr *Site,
                                        const clang::ParmVarDecl *Param);

  /// Whether argument-dependent lookup, at an instantiation, may add to the
  /// functions that Lookup, the callee of Call in a template as written,
  /// finds where it is written: only through an argument whose type depends
  /// on a template parameter or has associated namespaces (a class, an
  /// enumeration, a function, or a pointer, reference or array of one).
  static bool lookupMayGrow(const clang::CallExpr &Call,
                            const clang::UnresolvedLookupExpr &Lookup);

  /// True when F's address escapes (a function pointer, a reference): then
  /// some of its callers are invisible and nothing may be assumed about them.
  bool escapes(const clang::FunctionDecl *F) const {
    return Escaping.contains(F->getCanonicalDecl());
  }
  /// Where F's address first escapes, if it does.
  std::optional<clang::SourceLocation>
  escapesAt(const clang::FunctionDecl *F) const {
    return placeOf(Escaping, F);
  }

  /// True when the body of F, a template as written (a function template,
  /// or a member of a class template), is instantiated in this translation
  /// unit: its statements are then analysed in each instantiation, each with
  /// its own copy.
  bool isInstantiated(const clang::FunctionDecl &F) const {
    return Instantiated.contains(F.getCanonicalDecl());
  }

  /// True when F is a template as written that this unit instantiates: its
  /// statements are judged in each instantiation, with the values of its
  /// parameters, and not as written, where they would veto the fix that the
  /// instantiations agree on.
  bool judgedInInstantiations(const clang::FunctionDecl *F) const {
    return F && F->isDependentContext() && isInstantiated(*F);
  }

  /// Where code that the analyses do not see calls, constructs or launches
  /// F: an instantiation of a system header's template (a library running
  /// the user's functor or kernel), or a system header that declares F
  /// itself. Nothing may then be assumed about the lanes that arrive, nor
  /// about the blocks a kernel runs in.
  std::optional<clang::SourceLocation>
  calledFromUnanalysedCode(const clang::FunctionDecl *F) const;

  /// What runs F without a call that of() can list, if anything: a
  /// destructor runs where its object's scope ends or it is deleted, and an
  /// override of a virtual function where a call through a base class
  /// dispatches to it.
  static std::optional<std::string>
  implicitCallers(const clang::FunctionDecl *F);

  /// Some of F's callers (or launches) are not among of() and launchesOf():
  /// its address escapes, unanalysed code calls it, or it runs implicitly.
  bool callersUnseen(const clang::FunctionDecl *F) const {
    return escapes(F) || calledFromUnanalysedCode(F) || implicitCallers(F) ||
           reachedUnresolved(F) || calledInError(F);
  }

  /// Where a call that clang kept as an error (no overload takes its
  /// arguments, or an argument names nothing) names F among its targets.
  std::optional<clang::SourceLocation>
  calledInError(const clang::FunctionDecl *F) const {
    return placeOf(CalledInError, F);
  }

  /// Where a name in a template as written, which only an instantiation
  /// resolves, may call F without being counted among of(): F is called
  /// through such names, and argument-dependent lookup, `P::f` or `obj.f`
  /// may reach it too, or such a call stands outside any function.
  std::optional<clang::SourceLocation>
  reachedUnresolved(const clang::FunctionDecl *F) const;

  /// A launch of a kernel: `k<<<grid, Block>>>(...)`, or cudaLaunchKernel /
  /// cudaLaunchCooperativeKernel naming it.
  struct Launch {
    /// The block's dimensions, or with ThroughConfig the address of the
    /// cudaLaunchConfig_t that holds them (cudaLaunchKernelEx).
    const clang::Expr *Block;
    clang::SourceLocation At;
    bool ThroughConfig = false;
  };
  const std::vector<Launch> &launchesOf(const clang::FunctionDecl *Kernel) const;

private:
  explicit CallSites(const clang::SourceManager &SM) : SM(SM) {}

  using PlaceOfEach =
      llvm::DenseMap<const clang::FunctionDecl *, clang::SourceLocation>;
  static std::optional<clang::SourceLocation>
  placeOf(const PlaceOfEach &Places, const clang::FunctionDecl *F) {
    auto It = Places.find(F->getCanonicalDecl());
    if (It == Places.end())
      return std::nullopt;
    return It->second;
  }

  const clang::SourceManager &SM;
  llvm::DenseMap<const clang::FunctionDecl *,
                 std::vector<const clang::Expr *>>
      Calls;
  /// The first place where unanalysed code calls each function.
  PlaceOfEach Unanalysed;
  PlaceOfEach ReachedUnresolved;
  PlaceOfEach CalledInError;
  /// In templates that nothing here instantiates: the names of `P::f` and
  /// `obj.f`, each where it first stands, and the calls that
  /// argument-dependent lookup may resolve to functions their lookup does
  /// not list, by name.
  llvm::StringMap<clang::SourceLocation> MemberNames;
  llvm::StringMap<std::vector<const clang::UnresolvedLookupExpr *>>
      GrowingLookups;
  PlaceOfEach Escaping;
  llvm::DenseSet<const clang::FunctionDecl *> Instantiated;
  llvm::DenseMap<const clang::FunctionDecl *, std::vector<Launch>> Launches;
  std::vector<const clang::Expr *> None;
  std::vector<Launch> NoLaunches;
};

/// Gathers the call sites from the nodes of a walk of the unit's traversal
/// scope, shown to it in pre-order (the parent index's walk,
/// checks/CheckWalk.h); finish() completes them. A class of its own, not a
/// member of CallSites, so that the checks' interface can declare it.
class CallSiteGatherer : public ParentIndex::Observer {
public:
  explicit CallSiteGatherer(clang::ASTContext &Ctx);
  ~CallSiteGatherer() override;
  void enter(const clang::Decl &D) override;
  void enter(const clang::Stmt &S) override;
  /// The call sites gathered, completed by a walk of the system headers'
  /// template instantiations that the user's code reaches. Done only when
  /// an analysis needs them: those instantiations may be most of a unit
  /// that includes CUB or Thrust.
  CallSites finish();

private:
  clang::ASTContext &Ctx;
  std::unique_ptr<CallSites> Sites;
  std::unique_ptr<CallSites::Collector> Visitor;
};

} // namespace warpfix

#endif
