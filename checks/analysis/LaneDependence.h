// Is a value the same for every lane of a warp? (DESIGN.md §2)
#ifndef WARPFIX_CHECKS_ANALYSIS_LANEDEPENDENCE_H
#define WARPFIX_CHECKS_ANALYSIS_LANEDEPENDENCE_H

#include "checks/analysis/CallSites.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

namespace warpfix {

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
  /// The value is warp-uniform only because blocks are taken to be whole warps.
  bool ReliesOnWholeWarps = false;

  static LaneValue uniform(bool MultipleOf32 = false) {
    return {Uniform, MultipleOf32, false};
  }
  static LaneValue laneDependent() { return {LaneDependent, false, false}; }

  /// Same value for all lanes of a warp: such a condition cannot split one.
  bool isWarpUniform() const { return What <= WarpUniform; }
  LaneValue join(const LaneValue &Other) const;
  bool operator==(const LaneValue &O) const {
    return What == O.What && MultipleOf32 == O.MultipleOf32 &&
           ReliesOnWholeWarps == O.ReliesOnWholeWarps;
  }
};

class LaneDependence {
public:
  LaneDependence(clang::ASTContext &Ctx, const CallSites &Calls,
                 bool AssumeWholeWarps)
      : Ctx(Ctx), Calls(Calls), AssumeWholeWarps(AssumeWholeWarps) {}

  LaneValue of(const clang::Expr *E);

  /// The join of the conditions under which S runs inside its function: a
  /// value assigned under a lane-dependent branch is itself lane-dependent.
  LaneValue controlDependence(const clang::Stmt *S);
  /// The same, counting only the conditions between Outer and S.
  LaneValue controlDependenceWithin(const clang::Stmt *S,
                                    const clang::Stmt *Outer);

private:
  LaneValue ofVariable(const clang::VarDecl *Var);
  LaneValue ofParameter(const clang::ParmVarDecl *Param);
  LaneValue ofCall(const clang::CallExpr *Call);
  LaneValue ofBuiltinVariable(const clang::Expr *E, bool &Matched);
  LaneValue ofBinary(const clang::BinaryOperator *B);
  void solveFunction(const clang::FunctionDecl *F);

  clang::ASTContext &Ctx;
  const CallSites &Calls;
  bool AssumeWholeWarps;
  llvm::DenseMap<const clang::VarDecl *, LaneValue> Variables;
  llvm::DenseMap<const clang::FunctionDecl *, bool> Solved;
  llvm::DenseMap<const clang::ParmVarDecl *, LaneValue> Parameters;
  llvm::DenseSet<const clang::FunctionDecl *> InProgress;
};

/// The function whose body contains S, or null (a lambda's body counts as
/// its own function).
const clang::FunctionDecl *enclosingFunction(clang::ASTContext &Ctx,
                                             const clang::Stmt *S);

} // namespace warpfix

#endif
