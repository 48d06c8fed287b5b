// Whether the launch facts that warp-uniformity conclusions rest on (the
// Assumption bits of LaneValue) hold for the code at hand. By default they are
// assumed, as legacy code did (--assume-whole-warps); a launch of the kernel
// in the analysed code either proves them or switches them off for that
// kernel and everything it calls.
#ifndef WARPFIX_CHECKS_ANALYSIS_WARPASSUMPTIONS_H
#define WARPFIX_CHECKS_ANALYSIS_WARPASSUMPTIONS_H

#include "checks/analysis/CallSites.h"
#include "checks/analysis/LaneDependence.h"
#include "clang/AST/ASTContext.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include <optional>
#include <string>
#include <vector>

namespace warpfix {

/// How a finding says that a conclusion holds only if blocks are made of
/// whole warps, where nothing in sight shows whether they are.
inline constexpr llvm::StringLiteral InWholeWarpBlocksNotKnown =
    "in blocks made of whole warps, which is not known here";

/// What the analysed code shows about the blocks a function runs in.
struct BlockShape {
  /// From strongest to weakest. InUnit: every launch in this unit agrees,
  /// but the kernel has external linkage, so another translation unit may
  /// launch it too; that those launches agree is assumed, as by default.
  enum State { Proven, InUnit, Assumed, Contradicted };
  /// blockDim.x is a multiple of 32.
  State WholeWarps = Assumed;
  /// Blocks are one-dimensional, so threadIdx.x is the linear thread index.
  State OneDimensional = Assumed;
  /// Every warp of a block is full: the block's threads are a multiple of
  /// 32. Assumed where no launch shows otherwise.
  State FullWarps = Assumed;
  /// WholeWarps or OneDimensional is contradicted by what a launch or an
  /// attribute in sight shows (blocks of 48 threads), not merely unknown (an
  /// address that escapes, a size that cannot be evaluated): a condition
  /// that relies on it then does split some warps.
  bool ShownOtherwise = false;
  /// For a contradicted fact: the launch or attribute that contradicts it,
  /// and what it shows.
  clang::SourceLocation Where;
  std::string Why;
  /// The same for FullWarps.
  clang::SourceLocation PartialWhere;
  std::string PartialWhy;
  /// For an InUnit fact: the kernel that other units may launch.
  clang::SourceLocation ElsewhereWhere;
  std::string ElsewhereWhy;

  /// The weaker of two shapes, as for code reached from both.
  BlockShape weakest(const BlockShape &Other) const;
};

/// The threads of a block in each dimension, as a launch gives them.
struct BlockSize {
  int64_t X, Y, Z;
  bool operator==(const BlockSize &O) const {
    return X == O.X && Y == O.Y && Z == O.Z;
  }
};

class WarpAssumptions {
public:
  WarpAssumptions(clang::ASTContext &Ctx, const CallSites &Calls,
                  bool AssumeByDefault)
      : Ctx(Ctx), Calls(Calls), AssumeByDefault(AssumeByDefault) {}

  /// The shape of the blocks that code in F runs in: the weakest over the
  /// kernels that reach F. Unknown callers add the default assumption.
  BlockShape in(const clang::FunctionDecl *F);

  /// The block sizes of Kernel's launches in the analysed code.
  struct Launches {
    /// The distinct sizes of the launches that warpfix can evaluate.
    std::vector<BlockSize> Sizes;
    /// A launch may have another size: none is in sight, one cannot be
    /// evaluated, or one may hide behind an escaping address.
    bool OthersPossible = true;
    /// Other units may launch the kernel too, and are assumed to launch it
    /// in these sizes (the default assumption): why, and where, for a note.
    std::string OtherUnits;
    clang::SourceLocation OtherUnitsLoc;
  };
  Launches launchesOf(const clang::FunctionDecl *Kernel);

  /// Whether the assumptions named by Relies hold for code in F, and, if so,
  /// which of them hold only by default (AssumedOnly, with
  /// OtherUnitsLaunchAlike where a launch in this unit shows them but another
  /// unit may launch the kernel too).
  bool holds(unsigned Relies, const clang::FunctionDecl *F,
             unsigned &AssumedOnly);

  /// Where another translation unit may launch Kernel (its external
  /// linkage), if it may.
  static std::optional<clang::SourceLocation>
  launchableFromOtherUnits(const clang::FunctionDecl *Kernel);
  /// --assume-whole-warps: blocks are whole warps where nothing shows
  /// otherwise.
  bool assumesByDefault() const { return AssumeByDefault; }

private:
  BlockShape ofKernel(const clang::FunctionDecl *Kernel);
  void addLaunch(BlockShape &Shape, const CallSites::Launch &Launch,
                 clang::SourceLocation At);
  bool isOk(BlockShape::State S) const {
    return S == BlockShape::Proven ||
           ((S == BlockShape::InUnit || S == BlockShape::Assumed) &&
            AssumeByDefault);
  }

  clang::ASTContext &Ctx;
  const CallSites &Calls;
  bool AssumeByDefault;
  llvm::DenseMap<const clang::FunctionDecl *, BlockShape> Shapes;
  llvm::DenseSet<const clang::FunctionDecl *> InProgress;
};

} // namespace warpfix

#endif
