// warp-full-mask-divergent: a full member mask on a *_sync primitive that only
// some lanes of the warp reach.
#ifndef WARPFIX_CHECKS_WARP_FULL_MASK_DIVERGENT_H
#define WARPFIX_CHECKS_WARP_FULL_MASK_DIVERGENT_H

#include "checks/Check.h"

namespace warpfix {

class WarpFullMaskDivergentCheck : public Check {
public:
  explicit WarpFullMaskDivergentCheck(CheckContext &Context)
      : Check("warp-full-mask-divergent", Context) {}

  void onCall(const clang::CallExpr &Call, clang::ASTContext &Ctx) override;
};

} // namespace warpfix

#endif
