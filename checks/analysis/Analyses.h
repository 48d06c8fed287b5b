// The shared analyses of one translation unit, built on first use and asked
// by every check: checks never re-implement them.
#ifndef WARPFIX_CHECKS_ANALYSIS_ANALYSES_H
#define WARPFIX_CHECKS_ANALYSIS_ANALYSES_H

#include "checks/analysis/CallSites.h"
#include "checks/analysis/LaneDependence.h"
#include "checks/analysis/Membership.h"
#include "checks/analysis/WarpAssumptions.h"

namespace warpfix {

struct Analyses {
  Analyses(clang::ASTContext &Ctx, bool AssumeWholeWarps, CallSites Sites)
      : Calls(std::move(Sites)), Lanes(Ctx, Calls),
        Shapes(Ctx, Calls, AssumeWholeWarps),
        Members(Ctx, Lanes, Calls, Shapes),
        BlockMembers(Ctx, Lanes, Calls, Shapes, MembershipScope::Block) {}
  CallSites Calls;
  LaneDependence Lanes;
  WarpAssumptions Shapes;
  MembershipAnalysis Members;
  /// The threads of a block that reach a statement, for its barriers.
  MembershipAnalysis BlockMembers;
};

} // namespace warpfix

#endif
