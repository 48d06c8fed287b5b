// block-missing-syncthreads: shared memory written by a thread of one warp
// and read or written by a thread of another warp of the block, with no
// barrier of the whole block between the two accesses.
#ifndef WARPFIX_CHECKS_BLOCK_MISSING_SYNCTHREADS_H
#define WARPFIX_CHECKS_BLOCK_MISSING_SYNCTHREADS_H

#include "checks/Check.h"
#include "checks/SharedMemoryKernels.h"
#include "checks/analysis/SharedAccesses.h"
#include <vector>

namespace warpfix {

class BlockMissingSyncthreadsCheck : public Check {
public:
  BlockMissingSyncthreadsCheck(llvm::StringRef Name, CheckContext &Context)
      : Check(Name, Context) {}

  void onFunction(const clang::FunctionDecl &Kernel,
                  clang::ASTContext &Ctx) override;
  void onDeclRef(const clang::DeclRefExpr &Ref,
                 clang::ASTContext &Ctx) override;
  void onEndOfTranslationUnit() override;

private:
  void analyseKernel(const clang::FunctionDecl &Kernel, clang::ASTContext &Ctx);
  /// One finding for the races of one writing statement.
  void reportStatement(const clang::FunctionDecl &Kernel,
                       const std::vector<const Race *> &Races,
                       const WarpAssumptions::Launches &Launches,
                       bool LargestSkipped, clang::ASTContext &Ctx);
  /// Inserts the __syncthreads() that orders every race of Races, where
  /// every thread of the block provably reaches it, each the same number of
  /// times; otherwise records on Finding why not.
  bool fixWithBarrier(const clang::FunctionDecl &Kernel,
                      const std::vector<const Race *> &Races,
                      FindingBuilder &Finding, clang::ASTContext &Ctx);
  SharedMemoryKernels Kernels;
};

} // namespace warpfix

#endif
