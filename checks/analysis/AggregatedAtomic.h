// The warp-aggregated atomic (issue 15, item 6): one `__activemask()`, kept
// in a local, whose every use gives the right answer for whichever lanes
// happen to be converged when it is taken:
//
//   unsigned m = __activemask(); int leader = __ffs(m) - 1;
//   if (lane == leader) base = atomicAdd(ctr, __popc(m));
//   base = __shfl_sync(m, base, leader);
//
// The lanes converged at `__activemask()` split the warp into groups; all
// lanes of one group get the same m. Each group elects a leader from m, adds
// its own size, and broadcasts within m from a lane of m. That is right for
// any split, provided every lane of m reaches each shuffle with this m: the
// shuffle is reached by the same lanes, each time, as the `__activemask()`.
#ifndef WARPFIX_CHECKS_ANALYSIS_AGGREGATEDATOMIC_H
#define WARPFIX_CHECKS_ANALYSIS_AGGREGATEDATOMIC_H

#include "checks/analysis/Membership.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

namespace warpfix {

/// Whether ActiveMask, a call of `__activemask()` (or of a wrapper), is the
/// initializer of a local scalar m that is never assigned again nor has its
/// address taken, and whose every use is one of
///  - `__ffs(m)`, `__popc(m)`, `__popc(m & x)`: the leader and counts;
///  - the member mask of `__shfl_sync(m, v, leader)` over the whole warp
///    width, where leader is `__ffs(m) - 1` (directly, or a local assigned
///    only that), reached by the same lanes as the `__activemask()`;
///  - an argument to a helper that copies it into an integer parameter, the
///    call reached by those lanes, where the parameter is never assigned and
///    each of its uses is one of these, made by every lane that enters the
///    helper (`claimed[reserveSlots(ctr, m)] = 1;`).
bool isAggregationIdiom(const clang::Expr *ActiveMask, clang::ASTContext &Ctx,
                        MembershipAnalysis &Members);

} // namespace warpfix

#endif
