// Whether code waits for, or tells apart, other threads: what a fix that
// moves threads from one barrier, or exit, to another must not pass.
#ifndef WARPFIX_CHECKS_ANALYSIS_THREADCOUPLING_H
#define WARPFIX_CHECKS_ANALYSIS_THREADCOUPLING_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
#include <optional>
#include <string>

namespace warpfix {

struct ThreadCoupling {
  /// What it is: "'__shfl_sync'", "inline PTX", "a call through a pointer".
  std::string What;
  clang::SourceLocation Where;
};

enum class CouplingKind {
  /// A barrier of the block or of a warp, a warp primitive, __activemask().
  AnyThreads,
  /// A barrier of the block only.
  BlockBarriers,
};

/// The first thing in S, or in the code it calls (eight calls deep), that
/// couples threads as Kind says, or may: anything of cooperative groups,
/// inline PTX, a call through a pointer, a virtual call, a function whose
/// body is not in sight. Nothing where S holds none of these.
std::optional<ThreadCoupling>
threadCouplingIn(const clang::Stmt *S, clang::ASTContext &Ctx,
                 CouplingKind Kind = CouplingKind::AnyThreads);

} // namespace warpfix

#endif
