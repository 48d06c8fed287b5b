#include "checks/Check.h"
#include "checks/MaskFix.h"
#include "checks/analysis/Analyses.h"
#include "llvm/ADT/STLExtras.h"
#include <cassert>

namespace warpfix {

CheckContext::CheckContext(const CheckOptions &Options, FindingSink &Sink,
                           const FullMaskMacros &FullMasks,
                           const SkippedCode &Skipped)
    : Options(Options), Sink(Sink), FullMasks(FullMasks), Skipped(Skipped) {}

CheckContext::~CheckContext() = default;

bool CheckContext::runs(llvm::StringRef Check) const {
  return llvm::is_contained(Running, Check);
}

Analyses &CheckContext::analyses(clang::ASTContext &Ctx) {
  if (!Shared) {
    assert(Sites && "CheckWalk gathers the call sites before any check runs");
    Shared = std::make_unique<Analyses>(Ctx, Options.AssumeWholeWarps,
                                        Sites->finish());
    Sites.reset();
  }
  return *Shared;
}

CallSiteGatherer &CheckContext::gatherCallSites(clang::ASTContext &Ctx) {
  Sites = std::make_unique<CallSiteGatherer>(Ctx);
  return *Sites;
}

Check::Check(llvm::StringRef Name, CheckContext &Context)
    : Name(Name), Context(Context) {}

Check::~Check() = default;

const MaskStyle &Check::maskStyle() const {
  if (!Style)
    Style = std::make_unique<MaskStyle>(
        MaskStyle{Context.FullMasks, option(FullMaskSpellingOption),
                  option(MaskNamePrefixOption)});
  return *Style;
}

} // namespace warpfix
