// block-divergent-syncthreads: a barrier of the whole block (__syncthreads()
// and its counting forms, a thread block's sync(), bar.sync in inline PTX)
// that not every thread of the block reaches.
#ifndef WARPFIX_CHECKS_BLOCK_DIVERGENT_SYNCTHREADS_H
#define WARPFIX_CHECKS_BLOCK_DIVERGENT_SYNCTHREADS_H

#include "checks/Check.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/DenseMap.h"

namespace clang {
class FunctionDecl;
class Stmt;
} // namespace clang

namespace warpfix {

class BlockDivergentSyncthreadsCheck : public Check {
public:
  BlockDivergentSyncthreadsCheck(llvm::StringRef Name, CheckContext &Context)
      : Check(Name, Context) {}

  void onCall(const clang::CallExpr &Call, clang::ASTContext &Ctx) override;
  void onAsm(const clang::AsmStmt &Asm, clang::ASTContext &Ctx) override;

private:
  /// Reports Barrier, spelled Spelling, where some threads of the block
  /// provably do not reach it.
  void judge(const clang::Stmt &Barrier, llvm::StringRef Spelling,
             clang::ASTContext &Ctx);

  /// Whether a function holds what clang could not read, asked once.
  llvm::DenseMap<const clang::FunctionDecl *, bool> FunctionsWithErrors;
};

} // namespace warpfix

#endif
