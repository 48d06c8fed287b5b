// The fix of block-divergent-syncthreads for a barrier that ends both arms of
// an if/else: one barrier after the if, which every thread reaches.
#ifndef WARPFIX_CHECKS_BARRIERHOIST_H
#define WARPFIX_CHECKS_BARRIERHOIST_H

#include "checks/BarrierMove.h"
#include "checks/FindingSink.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

namespace warpfix {

struct Analyses;

/// Where Barrier is the `__syncthreads();` that ends one arm of an if/else
/// of Kernel, and the other arm ends with one too, rewrites
///
///     if (C) { A; __syncthreads(); } else { B; __syncthreads(); }
///
/// into
///
///     if (C) { A; } else { B; }
///     __syncthreads();
///
/// where every thread of the block reaches the if, the same number of times,
/// and neither arm leaves early or holds another barrier of the block
/// before its last statement: the threads of each arm then reach the one
/// barrier right where they reached their own.
BarrierMove hoistBarrierOutOfArms(const clang::FunctionDecl &Kernel,
                                  const clang::Stmt &Barrier, Analyses &Shared,
                                  FindingBuilder &Finding,
                                  clang::ASTContext &Ctx);

} // namespace warpfix

#endif
