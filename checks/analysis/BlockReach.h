// What the membership analysis does not model about whether every thread of
// a block reaches a statement together, the same number of times: a
// barrier inserted there must not rest on it.
#ifndef WARPFIX_CHECKS_ANALYSIS_BLOCKREACH_H
#define WARPFIX_CHECKS_ANALYSIS_BLOCKREACH_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include <optional>
#include <string>

namespace warpfix {

struct UnmodelledReach {
  std::string Why;
  clang::SourceLocation Where;
};

/// Why a barrier of the block at At, a statement of Kernel that the
/// membership analysis shows every thread of the block reaching, may still
/// hang or let threads through apart; nothing where no reason is seen:
/// - code that Kernel runs (its calls, constructors and destructors, eight
///   deep) may end threads where the walk does not look: inline PTX that
///   exits, returns or branches, a call through a pointer or a virtual
///   call;
/// - a loop waits on memory that other threads write (a spin-wait), which
///   a barrier before the write deadlocks;
/// - a condition that decides whether, or how often, threads reach At (of a
///   branch or loop around it, or of an exit before it or in such a loop)
///   reads memory, directly or through the locals it reads: other threads
///   may write it while each thread reads, so they may see different
///   values, uniform as the expression is.
std::optional<UnmodelledReach>
unmodelledReach(clang::ASTContext &Ctx, const clang::FunctionDecl &Kernel,
                const clang::Stmt *At);

} // namespace warpfix

#endif
