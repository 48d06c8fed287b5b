// The statements by which lanes leave a statement early, shared by the
// lane-dependence and membership analyses.
#ifndef WARPFIX_CHECKS_ANALYSIS_EXITS_H
#define WARPFIX_CHECKS_ANALYSIS_EXITS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseMap.h"
#include <vector>

namespace warpfix {

/// The functions whose call may end the calling thread: inline PTX `exit`
/// in their body, or in a function they call (followed eight calls deep;
/// a function with no body in sight is taken not to).
class ExitingFunctions {
public:
  explicit ExitingFunctions(clang::ASTContext &Ctx) : Ctx(Ctx) {}
  bool mayExit(const clang::CallExpr &Call);

private:
  bool mayExit(const clang::FunctionDecl *F, unsigned Depth);
  clang::ASTContext &Ctx;
  llvm::DenseMap<const clang::FunctionDecl *, bool> Known;
};

/// The returns, gotos, breaks and continues (and PTX `exit`s, and with
/// Exiting, calls that may exit the thread) inside S that leave it. A break
/// that a loop or switch nested in S captures does not count, nor a continue
/// that a loop nested in S captures (a continue inside a switch does count);
/// continues are left out when CountContinue is false.
std::vector<const clang::Stmt *> exitsOf(clang::ASTContext &Ctx,
                                         const clang::Stmt *S,
                                         bool CountContinue = true,
                                         ExitingFunctions *Exiting = nullptr);

/// An exit as a finding's note names it ("an early return", "a break").
const char *describeExit(const clang::Stmt *Exit);

/// Whether S contains a goto (or a computed goto) anywhere.
bool containsGoto(clang::ASTContext &Ctx, const clang::Stmt *S);

/// containsGoto of the body of Definition, a function's defining declaration,
/// with its walk left out where no label is declared in the function.
bool bodyContainsGoto(clang::ASTContext &Ctx,
                      const clang::FunctionDecl &Definition);

} // namespace warpfix

#endif
