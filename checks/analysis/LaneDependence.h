// Is a value the same for every lane of a warp?
#ifndef WARPFIX_CHECKS_ANALYSIS_LANEDEPENDENCE_H
#define WARPFIX_CHECKS_ANALYSIS_LANEDEPENDENCE_H

#include "checks/analysis/CallSites.h"
#include "checks/analysis/LocalDefinitions.h"
#include "checks/analysis/Exits.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include <memory>
#include <optional>

namespace warpfix {

/// The facts about the launch that a warp-uniformity conclusion may rest on.
/// The lane-dependence analysis records which ones it used; whether they hold
/// is decided per kernel, where the value is used (WarpAssumptions).
enum Assumption : unsigned {
  NoAssumption = 0,
  /// threadIdx.x is the thread's linear index in its block, so warps are
  /// 32-aligned runs of it: blocks are one-dimensional, or blockDim.x is a
  /// multiple of 32.
  LinearThreadIndex = 1,
  /// blockDim.x is a multiple of 32, so blockIdx.x * blockDim.x is too.
  WholeWarpBlocks = 2,
  /// blockDim.x is a multiple of 32 by every launch the code shows, so each
  /// warp lies in one row of the block: threadIdx.y and threadIdx.z are the
  /// same for its lanes. Never assumed by default, since 2-D blocks of
  /// 16 x 16 threads are common.
  WholeWarpRows = 4,
  /// Only in DefaultAssumptions::Bits: a fact above is shown by every launch in this
  /// translation unit, and assumed of launches in other units.
  OtherUnitsLaunchAlike = 8,
};

/// What a value looks like across the lanes of one warp, from most to least
/// uniform. The order is the lattice: joining two values takes the larger.
struct LaneValue {
  enum Kind {
    Uniform,     ///< the same for every thread of the grid (or of the block)
    WarpUniform, ///< the same within a warp, different between warps
    ThreadIndex, ///< threadIdx.x plus a uniform offset
    LaneDependent
  };
  Kind What = Uniform;
  /// Uniform: a multiple of 32. ThreadIndex: the offset is a multiple of 32.
  bool MultipleOf32 = false;
  /// The same, if blockDim.x is a multiple of 32 (implied by MultipleOf32).
  bool MultipleOf32IfWholeWarps = false;
  /// The Assumption bits some warp-uniformity conclusion behind this value
  /// relies on.
  unsigned Relies = NoAssumption;
  /// Known never to be negative: a thread or block index, a non-negative
  /// constant, sums and products of them. Signed division rounds toward
  /// zero, so it cuts a warp's lanes at a multiple of 32 only where the
  /// dividend is not negative (`(tid - 32) / 32` is -1 in lane 0 of warp 0
  /// and 0 in its other lanes).
  bool NonNegative = false;

  static LaneValue uniform(bool MultipleOf32 = false) {
    return {Uniform, MultipleOf32, MultipleOf32, NoAssumption};
  }
  static LaneValue laneDependent() { return {LaneDependent, false, false, 0}; }

  /// Same value for all lanes of a warp, provided the Relies assumptions hold.
  bool isWarpUniform() const { return What <= WarpUniform; }
  LaneValue join(const LaneValue &Other) const;
  bool operator==(const LaneValue &O) const {
    return What == O.What && MultipleOf32 == O.MultipleOf32 &&
           MultipleOf32IfWholeWarps == O.MultipleOf32IfWholeWarps &&
           Relies == O.Relies && NonNegative == O.NonNegative;
  }
};

class LaneDependence {
public:
  LaneDependence(clang::ASTContext &Ctx, const CallSites &Calls)
      : Ctx(Ctx), Calls(Calls), Exiting(Ctx) {}

  LaneValue of(const clang::Expr *E);
  static bool ofTemplateConstant(const clang::Expr *E);

  /// The join of the conditions under which S runs inside its function: a
  /// value assigned under a lane-dependent branch is itself lane-dependent.
  LaneValue controlDependence(const clang::Stmt *S);
  /// The same, counting only the conditions between Outer and S.
  LaneValue controlDependenceWithin(const clang::Stmt *S,
                                    const clang::Stmt *Outer);

  /// The statements by which lanes leave S early (exitsOf), computed once.
  const std::vector<const clang::Stmt *> &exits(const clang::Stmt *S);
  /// The calls that may end the calling thread are exits too.
  ExitingFunctions &exitingFunctions() { return Exiting; }

  /// Whether Var, a local or parameter of a function with a body, is never
  /// assigned there and its address never escapes: it keeps the value it
  /// starts with (its initializer, or what the call passed).
  bool keepsItsValue(const clang::VarDecl *Var);

  /// Whether F's body holds a goto (containsGoto), computed once: the
  /// membership of every call in F asks it too.
  bool hasGoto(const clang::FunctionDecl *F);

private:
  LaneValue ofVariable(const clang::VarDecl *Var);
  std::optional<LaneValue> ofLoopCounter(const clang::DeclRefExpr *Ref,
                                         const clang::VarDecl *Var);
  LaneValue ofParameter(const clang::ParmVarDecl *Param);
  LaneValue ofCall(const clang::CallExpr *Call);
  LaneValue ofBuiltinVariable(const clang::Expr *E, bool &Matched);
  LaneValue ofBinary(const clang::BinaryOperator *B);
  LaneValue ofLoad(const clang::Expr *Lvalue);
  LaneValue ofConstruction(const clang::CXXConstructExpr *Construct);
  void solveFunction(const clang::FunctionDecl *F);
  /// The definitions and escapes of F's locals, collected once.
  struct FunctionLocals {
    LocalDefinitions Locals;
    /// The variables that some definition gives a value, in the order of
    /// their first definition. A set: a scan per definition made long
    /// functions quadratic.
    llvm::SetVector<const clang::VarDecl *> Defined;
  };
  const FunctionLocals &localsOf(const clang::FunctionDecl *F);

  clang::ASTContext &Ctx;
  const CallSites &Calls;
  llvm::DenseMap<const clang::VarDecl *, LaneValue> Variables;
  llvm::DenseMap<const clang::FunctionDecl *, bool> Solved;
  llvm::DenseMap<const clang::ParmVarDecl *, LaneValue> Parameters;
  /// Functions whose variables are being solved.
  llvm::DenseSet<const clang::FunctionDecl *> InProgress;
  /// Functions whose parameters are being joined over their call sites: a
  /// set of its own, because solving a function's variables starts with its
  /// parameters, and sharing InProgress made every parameter lane-dependent.
  llvm::DenseSet<const clang::FunctionDecl *> ParametersInProgress;
  /// Constructors whose initializers and body are being read for one
  /// construction: their parameters stand for its arguments, whose values
  /// the construction joins in itself.
  llvm::DenseSet<const clang::FunctionDecl *> ConstructorsBeingRead;
  /// Broadcasts whose reach is being judged: one in a loop's condition is
  /// reached by the lanes for which that condition, itself included, held.
  llvm::DenseSet<const clang::CallExpr *> BroadcastsInProgress;
  llvm::DenseMap<const clang::Stmt *, std::vector<const clang::Stmt *>>
      ExitCache;
  ExitingFunctions Exiting;
  llvm::DenseMap<const clang::FunctionDecl *, bool> Gotos;
  /// The values of expressions asked about while no solve was under way.
  llvm::DenseMap<const clang::Expr *, LaneValue> Settled;
  /// A loop counter's value inside the for loop whose init assigns it
  /// (ofLoopCounter): settled, and being solved (the current approximation).
  using CounterKey = std::pair<const clang::VarDecl *, const clang::Stmt *>;
  llvm::DenseMap<CounterKey, LaneValue> Counters;
  llvm::DenseMap<CounterKey, LaneValue> CountersInProgress;
  /// Whether some for loop's init assigns the variable, asked once.
  llvm::DenseMap<const clang::VarDecl *, bool> AssignedByForInit;
  /// By pointer, so that a solve in progress keeps its reference while a
  /// nested one adds to the map.
  llvm::DenseMap<const clang::FunctionDecl *, std::unique_ptr<FunctionLocals>>
      LocalsCache;
};

} // namespace warpfix

#endif
