// Which lanes of a warp provably execute a given statement (DESIGN.md §2).
#ifndef WARPFIX_CHECKS_ANALYSIS_MEMBERSHIP_H
#define WARPFIX_CHECKS_ANALYSIS_MEMBERSHIP_H

#include "checks/analysis/LaneDependence.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include <string>
#include <vector>

namespace warpfix {

/// A lane-dependent condition that decides which lanes go on, made of
/// conjuncts evaluated, in order, right before Anchor: the statement before
/// which a `__ballot_sync` of it can be inserted.
struct LaneCondition {
  struct Conjunct {
    const clang::Expr *Condition;
    bool Negated;
  };
  std::vector<Conjunct> Conjuncts;
  const clang::Stmt *Anchor = nullptr;
};

struct Membership {
  enum Kind { AllLanes, Conditional, Unknown };
  Kind Result = Unknown;
  /// Conditional: outermost first; each is evaluated by the lanes that the
  /// ones before it let through.
  std::vector<LaneCondition> Conditions;
  /// Unknown: what makes the set of lanes unknowable, and where.
  std::string Reason;
  clang::SourceLocation ReasonLoc;
  /// Some condition was taken as warp-uniform because blocks are assumed to
  /// be made of whole warps (blockDim.x a multiple of 32).
  bool ReliesOnWholeWarps = false;
  /// Unknown, but provably not all lanes: the reason is a lane-dependent
  /// construct, not a lack of information (no visible caller, a goto).
  bool KnownDivergent = false;

  static Membership unknown(std::string Reason, clang::SourceLocation Loc) {
    Membership M;
    M.Reason = std::move(Reason);
    M.ReasonLoc = Loc;
    return M;
  }
  static Membership divergent(std::string Reason, clang::SourceLocation Loc) {
    Membership M = unknown(std::move(Reason), Loc);
    M.KnownDivergent = true;
    return M;
  }
  /// Some lanes of the warp provably do not get here.
  bool isPartial() const {
    return Result == Conditional || (Result == Unknown && KnownDivergent);
  }
};

class MembershipAnalysis {
public:
  MembershipAnalysis(clang::ASTContext &Ctx, LaneDependence &Lanes,
                     const CallSites &Calls)
      : Ctx(Ctx), Lanes(Lanes), Calls(Calls) {}

  /// The lanes that reach S, from the entry of the function around it. For a
  /// device function, its entry counts as reached by all lanes only when every
  /// call of it in the translation unit is.
  Membership at(const clang::Stmt *S);

private:
  Membership atEntry(const clang::FunctionDecl *F);
  bool addCondition(Membership &M, const clang::IfStmt *If, bool Negated,
                    const clang::Stmt *Anchor);
  bool applyEarlyExits(Membership &M, const clang::Stmt *Earlier,
                       const clang::Stmt *Reached);

  clang::ASTContext &Ctx;
  LaneDependence &Lanes;
  const CallSites &Calls;
  llvm::DenseMap<const clang::FunctionDecl *, Membership> Entries;
  llvm::DenseSet<const clang::FunctionDecl *> InProgress;
};

/// The same set of lanes: both all lanes, or the same ballots of the same
/// conditions at the same places.
bool sameLanes(const Membership &A, const Membership &B);

/// A condition may be evaluated a second time, in a ballot right before its
/// statement, only if doing so changes nothing: no side effects, no volatile
/// reads, no calls but pure toolkit functions.
bool isHoistable(const clang::Expr *Condition, clang::ASTContext &Ctx);

} // namespace warpfix

#endif
