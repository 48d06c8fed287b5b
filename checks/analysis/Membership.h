// Which lanes of a warp provably execute a given statement.
#ifndef WARPFIX_CHECKS_ANALYSIS_MEMBERSHIP_H
#define WARPFIX_CHECKS_ANALYSIS_MEMBERSHIP_H

#include "checks/analysis/LaneDependence.h"
#include "checks/analysis/WarpAssumptions.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include <optional>
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
  /// Set for the lanes that run an iteration of a loop whose condition is
  /// lane-dependent (then Anchor is the loop, and the one conjunct its
  /// condition). The fix rewrites the loop so that the lanes that entered it
  /// stay in it until none has an iteration left, each iteration taking a
  /// ballot of the condition; loopRewriteRefusal() says when that is sound.
  const clang::Stmt *Loop = nullptr;
};

/// The shapes of mask a fix may write: ballots before branches only, or
/// also the per-iteration ballot of a lane-dependent loop, at the price of
/// rewriting the loop (LaneCondition::Loop), and the ballot of a
/// lane-dependent `?:`, taken before its statement.
enum class FixShapes { BallotsOnly, WithLoopsAndArms };

/// The most conditions that one ballot of a mask fix writes out.
inline constexpr size_t MaxBallotConjuncts = 12;

/// The Assumption bits (WarpAssumptions.h) that a conclusion holds on only by
/// default, and for OtherUnitsLaunchAlike, which kernel other units may
/// launch and where it is.
struct DefaultAssumptions {
  unsigned Bits = 0;
  std::string OtherUnits;
  clang::SourceLocation OtherUnitsLoc;

  void add(const DefaultAssumptions &Other) {
    Bits |= Other.Bits;
    if (OtherUnits.empty()) {
      OtherUnits = Other.OtherUnits;
      OtherUnitsLoc = Other.OtherUnitsLoc;
    }
  }
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
  /// What some condition was taken as warp-uniform on by default rather than
  /// because the code's launches show it.
  DefaultAssumptions Assumed;
  /// Why a condition that would be warp-uniform in whole-warp blocks was not
  /// taken as such: the launch that switches the assumption off.
  std::string AssumptionOff;
  clang::SourceLocation AssumptionOffLoc;
  /// AllLanes in code whose blocks may end in a partial warp: why (the launch
  /// that shows it, or that leaves the block size unknown), and where. The
  /// lanes such a warp lacks count as exited, which a full mask allows, but
  /// "every lane" then means every lane the warp has.
  std::string PartialWarps;
  clang::SourceLocation PartialWarpsLoc;
  /// Unknown, but provably not all lanes: the reason is a lane-dependent
  /// construct, not a lack of information (no visible caller, a goto).
  bool KnownDivergent = false;
  /// KnownDivergent: what parts the lanes, the one that failed the walk
  /// first: conditions, or exits (`return`, `break`) whose enclosing
  /// conditions do; up a call chain, the caller's. A report about the parting
  /// can then tell which of them depends on the thread's own index.
  std::vector<const clang::Stmt *> Deciders;
  /// Conditional, and some condition is lane-dependent. Otherwise each one
  /// is warp-uniform in blocks of whole warps and only the block shape is
  /// unproven: the ballot is still exact, but every lane may well get here.
  bool LaneDependentCondition = false;
  /// Unknown because the function, or every function that calls it, has no
  /// call site in this translation unit: another unit that has one can tell,
  /// so a finding here abstains rather than refuses (FindingBuilder::abstain).
  bool NoCallerSeen = false;
  /// Unknown at a function's entry because of a call site: how many callers
  /// up the chain the Reason goes through, and the reason at its far end. A
  /// long chain is told by its ends, not by one clause per call.
  unsigned CallChain = 0;
  std::string ChainEnd;

  /// Adds the assumptions that Other's conclusion rests on to this one's.
  void takeAssumptions(const Membership &Other) { Assumed.add(Other.Assumed); }

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
    return (Result == Conditional && LaneDependentCondition) ||
           (Result == Unknown && KnownDivergent);
  }
};

struct PathStep;

/// Whose threads a membership is about: the lanes of one warp, for the warp
/// primitives, or the threads of one block, for the block's barriers. A
/// condition leaves every thread of a block together only where its value is
/// the same across the block; one that is the same within each warp
/// (`threadIdx.x / 32`) still splits the block.
enum class MembershipScope { Warp, Block };

class MembershipAnalysis {
public:
  MembershipAnalysis(clang::ASTContext &Ctx, LaneDependence &Lanes,
                     const CallSites &Calls, WarpAssumptions &Shapes,
                     MembershipScope Scope = MembershipScope::Warp)
      : Ctx(Ctx), Lanes(Lanes), Calls(Calls), Shapes(Shapes), Scope(Scope) {}

  /// The lanes that reach S, from the entry of the function around it. For a
  /// device function, its entry counts as reached by all lanes only when every
  /// call of it in the translation unit is.
  Membership at(const clang::Stmt *S,
               FixShapes Allowed = FixShapes::BallotsOnly);
  /// The lanes that reach S out of those that enter its function, whoever
  /// they are: two statements with the sameLanes() here are reached by the
  /// same lanes, each time, even where nothing is known of the callers. For
  /// a helper whose callers differ, and that gets its mask from them.
  Membership withinFunction(const clang::Stmt *S);

private:
  Membership walk(const clang::Stmt *S, bool FromAnyEntry,
                  FixShapes Allowed = FixShapes::BallotsOnly);
  Membership fromEntry(const clang::FunctionDecl *F,
                       const std::vector<PathStep> &Path, FixShapes Allowed);
  /// Adds the condition of Loop, lane-dependent, for a statement in its
  /// body; or fails M with why the loop cannot be rewritten.
  bool addLoopCondition(Membership &M, const clang::Stmt *Loop,
                        const clang::FunctionDecl *F);
  /// Adds the condition of Cond, lane-dependent, for a call in one of its
  /// arms, as a ballot taken before the statement Cond is part of; or fails
  /// M with why that ballot would not be exact.
  bool addArmCondition(Membership &M,
                       const clang::AbstractConditionalOperator *Cond,
                       bool InFalseArm, const clang::FunctionDecl *F);
  Membership atEntry(const clang::FunctionDecl *F);
  bool addCondition(Membership &M, const clang::IfStmt *If, bool Negated,
                    const clang::Stmt *Anchor, const clang::FunctionDecl *F);
  bool applyEarlyExits(Membership &M, const clang::Stmt *Earlier,
                       const clang::Stmt *Reached,
                       const clang::FunctionDecl *F);
  /// Whether V, computed in F, is the same for every lane of a warp there:
  /// warp-uniform, and the launch facts it relies on hold for F. Records in M
  /// what was assumed, or which launch contradicts it.
  bool uniformIn(LaneValue V, const clang::FunctionDecl *F, Membership &M);
  /// Whether V, which uniformIn() did not prove, is taken to split some
  /// warp: it is lane-dependent; or a launch in sight shows blocks in which
  /// the fact it is uniform on fails; or that fact is one never assumed
  /// (rows of whole warps), or --assume-whole-warps=false says blocks may
  /// not be whole warps. Otherwise only an unknown block shape (an address
  /// that escapes, a launch that cannot be evaluated) kept it from being
  /// proven, and every lane may well go the same way.
  bool splitsWarps(LaneValue V, const clang::FunctionDecl *F);
  /// Unknown, or divergent where Splits, because Subject decides which
  /// threads go on and is not uniform.
  Membership notUniform(bool Splits, llvm::StringRef Subject,
                        llvm::StringRef Consequence,
                        llvm::StringRef MaybeConsequence,
                        clang::SourceLocation Where,
                        const clang::Expr *Condition) const;
  /// "lanes" or "threads", as the scope counts them.
  llvm::StringRef threads() const {
    return Scope == MembershipScope::Block ? "threads" : "lanes";
  }
  /// The word for a value that differs between them.
  llvm::StringRef dependent() const {
    return Scope == MembershipScope::Block ? "thread-dependent"
                                           : "lane-dependent";
  }
  clang::ASTContext &Ctx;
  LaneDependence &Lanes;
  const CallSites &Calls;
  WarpAssumptions &Shapes;
  MembershipScope Scope;
  llvm::DenseMap<const clang::FunctionDecl *, Membership> Entries;
  llvm::DenseSet<const clang::FunctionDecl *> InProgress;
};

/// The same set of lanes: both all lanes, or the same ballots of the same
/// conditions at the same places.
bool sameLanes(const Membership &A, const Membership &B);

/// A condition may be evaluated a second time, in a ballot right before its
/// statement, only if doing so changes nothing: no side effects, no volatile
/// reads, no calls but pure toolkit functions, and, in a template as written,
/// nothing whose type depends on a template parameter (an instantiation may
/// make it an overloaded operator or a conversion).
bool isHoistable(const clang::Expr *Condition, clang::ASTContext &Ctx);

/// A condition that gives the same value however long after its first
/// evaluation it is evaluated again, whatever other lanes do meanwhile: it
/// reads registers (non-volatile locals and parameters by value, the thread's
/// index), the thread's own local arrays and objects, and memory that no
/// device code writes (const and __constant__ variables), and it is hoistable.
/// A ballot is taken before its branch, and the branch tests the condition
/// again: a condition that reads memory another lane may write in between
/// may send a lane down an arm whose mask does not name it.
bool readsOnlyThreadPrivate(const clang::Expr *Condition,
                            clang::ASTContext &Ctx);
/// What readsOnlyThreadPrivate asks of what E reads, whatever E writes to
/// the thread's own registers (`++i < n`).
bool readsOnlyThreadPrivateValues(const clang::Expr *E, clang::ASTContext &Ctx);

} // namespace warpfix

#endif
