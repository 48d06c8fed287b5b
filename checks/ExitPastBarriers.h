// The fix of block-divergent-syncthreads for barriers after an early return:
// the threads that would return take part in the barriers first, skipping
// the statements between, and return after the last one.
#ifndef WARPFIX_CHECKS_EXITPASTBARRIERS_H
#define WARPFIX_CHECKS_EXITPASTBARRIERS_H

#include "checks/BarrierMove.h"
#include "checks/FindingSink.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include <string>

namespace warpfix {

struct Analyses;

/// Where Barrier, a `__syncthreads();` statement of Kernel's body, follows
/// an early exit of that body, `if (C) return;`, that every thread of the
/// block reaches, rewrites
///
///     if (C) return;  S1  __syncthreads();  S2  __syncthreads();  S3
///
/// into
///
///     const bool returns_early = C;
///     if (!returns_early) { S1 }  __syncthreads();
///     if (!returns_early) { S2 }  __syncthreads();
///     if (returns_early) return;  S3
///
/// taking every `__syncthreads();` of the body after the exit. It refuses
/// where the threads that returned would matter to the others on the way:
/// S1, S2 exit, hold another barrier, a warp-synchronous operation, inline
/// PTX or a call it cannot see into, or declare what later code uses and
/// the threads that left may not run (a read of memory, a call).
BarrierMove moveExitPastBarriers(const clang::FunctionDecl &Kernel,
                                 const clang::Stmt &Barrier, Analyses &Shared,
                                 FindingBuilder &Finding,
                                 clang::ASTContext &Ctx);

} // namespace warpfix

#endif
