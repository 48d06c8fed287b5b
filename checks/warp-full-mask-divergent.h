// warp-full-mask-divergent: a full member mask on a *_sync primitive that only
// some lanes of the warp reach.
#ifndef WARPFIX_CHECKS_WARP_FULL_MASK_DIVERGENT_H
#define WARPFIX_CHECKS_WARP_FULL_MASK_DIVERGENT_H

#include "checks/Check.h"
#include "checks/MaskFix.h"

namespace warpfix {

class WarpFullMaskDivergentCheck : public Check {
public:
  WarpFullMaskDivergentCheck(llvm::StringRef Name, CheckContext &Context)
      : Check(Name, Context) {}
  /// The masks it writes are spelled as these say.
  static llvm::ArrayRef<CheckOptionInfo> options() { return MaskStyleOptions; }

  void onCall(const clang::CallExpr &Call, clang::ASTContext &Ctx) override;
};

} // namespace warpfix

#endif
