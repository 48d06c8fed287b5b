// warp-legacy-intrinsic: calls of the pre-CUDA-9 warp intrinsics, which
// assume lockstep execution and which CUDA 13 no longer compiles.
#ifndef WARPFIX_CHECKS_WARP_LEGACY_INTRINSIC_H
#define WARPFIX_CHECKS_WARP_LEGACY_INTRINSIC_H

#include "checks/Check.h"

namespace warpfix {

struct LegacyIntrinsic;

class WarpLegacyIntrinsicCheck : public Check {
public:
  explicit WarpLegacyIntrinsicCheck(CheckContext &Context)
      : Check("warp-legacy-intrinsic", Context) {}

  void registerMatchers(clang::ast_matchers::MatchFinder &Finder) override;
  void run(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;

private:
  static std::string message(const LegacyIntrinsic &Entry);
  void reportUninstantiated(const clang::CallExpr &Call,
                            const clang::FunctionDecl &Template);
};

} // namespace warpfix

#endif
