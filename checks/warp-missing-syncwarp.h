// warp-missing-syncwarp: shared-memory accesses by two lanes of one warp to
// one location, at least one a write, with no barrier between them.
#ifndef WARPFIX_CHECKS_WARP_MISSING_SYNCWARP_H
#define WARPFIX_CHECKS_WARP_MISSING_SYNCWARP_H

#include "checks/Check.h"
#include "checks/analysis/SharedAccesses.h"

namespace warpfix {

class WarpMissingSyncwarpCheck : public Check {
public:
  explicit WarpMissingSyncwarpCheck(CheckContext &Context)
      : Check("warp-missing-syncwarp", Context) {}

  void registerMatchers(clang::ast_matchers::MatchFinder &Finder) override;
  void run(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  void reportStatement(const std::vector<const Race *> &Races,
                       clang::ASTContext &Ctx);
  bool fixScanStep(const Race &First, const std::vector<const Race *> &Races,
                   FindingBuilder &Finding, clang::ASTContext &Ctx);
  bool fixChain(const Race &First, const std::vector<const Race *> &Races,
                FindingBuilder &Finding, clang::ASTContext &Ctx);
  bool fixWithBarriers(const std::vector<const Race *> &Races,
                       FindingBuilder &Finding, clang::ASTContext &Ctx);
};

} // namespace warpfix

#endif
