// What became of one of block-divergent-syncthreads' fixes, each of which
// moves a barrier, or an exit, so that every thread of the block reaches the
// barrier.
#ifndef WARPFIX_CHECKS_BARRIERMOVE_H
#define WARPFIX_CHECKS_BARRIERMOVE_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/SourceLocation.h"
#include <optional>
#include <string>

namespace warpfix {

/// What became of the fix of one barrier.
struct BarrierMove {
  enum Outcome {
    /// The edits are on the finding.
    Fixed,
    /// The shape this fix is for does not apply to the barrier.
    OtherShape,
    /// The shape applies, and Why says what stops the fix.
    Refused,
  };
  Outcome Result;
  std::string Why;
  clang::SourceLocation Where;
};

struct Analyses;

/// A refusal: "no automatic fix: " and Why.
inline BarrierMove refusal(std::string Why, clang::SourceLocation Where) {
  return BarrierMove{BarrierMove::Refused,
                     "no automatic fix: " + std::move(Why), Where};
}

/// Why a move is not proven to bring every thread of the block to the
/// barrier when every thread goes through At, a statement of Kernel named
/// What ("the if"), the same number of times: Kernel is not a kernel (a
/// function's callers may each bring only some threads) or is a template
/// (one edit for every instantiation), the membership analysis does not
/// show every thread of the block reaching At, or what it does not model
/// decides that. Nothing where it is proven.
std::optional<BarrierMove> unprovenReach(const clang::FunctionDecl &Kernel,
                                         const clang::Stmt *At,
                                         llvm::StringRef What, Analyses &Shared,
                                         clang::ASTContext &Ctx);

/// `__syncthreads()`, the only barrier these fixes move: the counting forms
/// return values, and the others are spelled in ways a move would change.
inline bool isPlainSyncthreads(const clang::Stmt *S) {
  const auto *Call = llvm::dyn_cast_or_null<clang::CallExpr>(S);
  const clang::FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  return Callee && Callee->getIdentifier() &&
         Callee->getName() == "__syncthreads" && Call->getNumArgs() == 0;
}

} // namespace warpfix

#endif
