// Does a value visibly come from the thread's own identity? The
// lane-dependence analysis also takes what it cannot follow (a function's
// result, a local that a helper writes through a reference, a variable that
// is given a thread's value somewhere else in the function) as differing
// between threads. That keeps a mask safe, and would make a report that the
// threads part one without proof: a report asks this too.
#ifndef WARPFIX_CHECKS_ANALYSIS_THREADIDENTITY_H
#define WARPFIX_CHECKS_ANALYSIS_THREADIDENTITY_H

#include "checks/analysis/CallSites.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseMap.h"

namespace warpfix {

class ThreadIdentity {
public:
  ThreadIdentity(clang::ASTContext &Ctx, const CallSites &Calls)
      : Ctx(Ctx), Calls(Calls) {}

  /// Whether S reads threadIdx, or a result that differs from thread to
  /// thread (an atomic's), or a local or a device function's parameter that
  /// is given such a value. A local read right after a plain assignment in
  /// the same block (`bid = shmem[0]; if (bid >= n) ...`) holds that
  /// assignment's value there, whatever else the function gives it.
  bool of(const clang::Stmt *S, unsigned Depth = 0);

private:
  bool ofVariable(const clang::VarDecl *Var, unsigned Depth);
  /// The value Var certainly holds where Ref reads it, where one plain
  /// assignment decides it; null otherwise.
  const clang::Expr *lastAssignedValue(const clang::DeclRefExpr &Ref,
                                       const clang::VarDecl &Var);
  bool assignedFromIdentity(const clang::VarDecl *Var, const clang::Stmt *Body,
                            unsigned Depth);

  clang::ASTContext &Ctx;
  const CallSites &Calls;
  llvm::DenseMap<const clang::VarDecl *, bool> Variables;
};

} // namespace warpfix

#endif
