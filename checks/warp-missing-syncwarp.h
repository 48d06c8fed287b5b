// warp-missing-syncwarp: shared-memory accesses by two lanes of one warp to
// one location, at least one a write, with no barrier between them.
#ifndef WARPFIX_CHECKS_WARP_MISSING_SYNCWARP_H
#define WARPFIX_CHECKS_WARP_MISSING_SYNCWARP_H

#include "checks/Check.h"
#include "checks/MaskFix.h"
#include "checks/SharedMemoryKernels.h"
#include "checks/analysis/SharedAccesses.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace warpfix {

struct Membership;

class WarpMissingSyncwarpCheck : public Check {
public:
  WarpMissingSyncwarpCheck(llvm::StringRef Name, CheckContext &Context)
      : Check(Name, Context) {}
  /// The masks it writes are spelled as these say.
  static llvm::ArrayRef<CheckOptionInfo> options() { return MaskStyleOptions; }

  void onFunction(const clang::FunctionDecl &Kernel,
                  clang::ASTContext &Ctx) override;
  void onDeclRef(const clang::DeclRefExpr &Ref, clang::ASTContext &Ctx) override;
  void onEndOfTranslationUnit() override;

private:
  void analyseKernel(const clang::FunctionDecl &Kernel, clang::ASTContext &Ctx);

  SharedMemoryKernels Kernels;
  /// The kernel being reported names threadIdx.y or z and may be launched
  /// in blocks that warpfix cannot see.
  bool RowsModelled = false;
  std::optional<std::string>
  unseenShapeMatters(const std::vector<const Race *> &Races,
                     bool LargestSkipped) const;
  /// Launches: the block sizes the races were found in. LargestSkipped: for
  /// launches not in sight, the model of the largest block was given up for
  /// its cost.
  void reportStatement(const std::vector<const Race *> &Races,
                       const WarpAssumptions::Launches &Launches,
                       bool LargestSkipped, clang::ASTContext &Ctx);
  bool fixScanStep(const Race &First, const std::vector<const Race *> &Races,
                   FindingBuilder &Finding, clang::ASTContext &Ctx);
  bool fixChain(const Race &First, const std::vector<const Race *> &Races,
                FindingBuilder &Finding, clang::ASTContext &Ctx);
  bool fixWithBarriers(const std::vector<const Race *> &Races,
                       FindingBuilder &Finding, clang::ASTContext &Ctx);
  /// Whether a barrier of Lanes at Place orders each racing access: where
  /// not all lanes reach it, they must be the same lanes each time Place
  /// runs, and every access outside the rewrite (InRewrite) must be made by
  /// the same lanes. Records the refusal on Finding where not.
  bool racersReach(const std::vector<const Race *> &Races,
                   const Membership &Lanes, const clang::Stmt *Place,
                   llvm::function_ref<bool(const clang::Stmt *)> InRewrite,
                   FindingBuilder &Finding, clang::ASTContext &Ctx);
};

} // namespace warpfix

#endif
