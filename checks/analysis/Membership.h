// Which lanes of a warp provably execute a given call (DESIGN.md §2).
#ifndef WARPFIX_CHECKS_ANALYSIS_MEMBERSHIP_H
#define WARPFIX_CHECKS_ANALYSIS_MEMBERSHIP_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include <string>

namespace warpfix {

struct Membership {
  enum Kind { AllLanes, Unknown };
  Kind Result = Unknown;
  /// For Unknown: what makes the set of lanes unknowable, and where.
  std::string Reason;
  clang::SourceLocation ReasonLoc;

  static Membership allLanes() { return {AllLanes, "", {}}; }
  static Membership unknown(std::string Reason, clang::SourceLocation Loc) {
    return {Unknown, std::move(Reason), Loc};
  }
};

/// Answers AllLanes only for calls in a kernel's straight-line code: nothing
/// that could make lanes diverge (a branch, loop, conditional expression,
/// return or goto) lies on the path from the kernel's entry to the call. Every
/// other call is Unknown, with the construct that makes it so.
Membership membershipAt(const clang::CallExpr &Call, clang::ASTContext &Ctx);

} // namespace warpfix

#endif
