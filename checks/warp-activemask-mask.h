// warp-activemask-mask: __activemask() used as the member mask of a *_sync
// primitive, and __activemask() compared with the full mask.
#ifndef WARPFIX_CHECKS_WARP_ACTIVEMASK_MASK_H
#define WARPFIX_CHECKS_WARP_ACTIVEMASK_MASK_H

#include "checks/Check.h"
#include "checks/MaskFix.h"

namespace warpfix {

class WarpActivemaskMaskCheck : public Check {
public:
  WarpActivemaskMaskCheck(llvm::StringRef Name, CheckContext &Context)
      : Check(Name, Context) {}
  /// The masks it writes are spelled as these say.
  static llvm::ArrayRef<CheckOptionInfo> options() { return MaskStyleOptions; }

  void onCall(const clang::CallExpr &Call, clang::ASTContext &Ctx) override;
  void onAsm(const clang::AsmStmt &Asm, clang::ASTContext &Ctx) override;
  void onBinaryOperator(const clang::BinaryOperator &Compare,
                        clang::ASTContext &Ctx) override;

private:
  bool judgedInInstantiations(const clang::Stmt &S, clang::ASTContext &Ctx);
  void checkMask(const clang::CallExpr &Call, clang::ASTContext &Ctx);
  /// Mask, the member mask of Primitive at Use (a call, or an asm statement
  /// whose PTX takes it as an input operand).
  void checkMaskValue(const clang::Expr *Mask, const clang::Stmt &Use,
                      llvm::StringRef Primitive, clang::ASTContext &Ctx);
  /// The member masks of the .sync instructions in inline PTX.
  void checkPtx(const clang::GCCAsmStmt &Asm, clang::ASTContext &Ctx);
  /// Whether Written (the full mask, or a constant) may replace Stored, an
  /// __activemask() (or one and-ed with that constant) taken where every
  /// lane arrives and kept in a local: says on Finding why not, when not.
  bool storedMaskIsExact(FindingBuilder &Finding, const clang::Expr *Stored,
                         llvm::StringRef Written, clang::ASTContext &Ctx);
  void checkComparison(const clang::BinaryOperator &Compare,
                       const clang::CallExpr &ActiveMask,
                       clang::ASTContext &Ctx);
};

} // namespace warpfix

#endif
