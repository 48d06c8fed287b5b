#include "checks/BarrierMove.h"
#include "checks/analysis/Analyses.h"
#include "checks/analysis/BlockReach.h"
#include "clang/AST/Attr.h"

using namespace clang;

namespace warpfix {

std::optional<BarrierMove> unprovenReach(const FunctionDecl &Kernel,
                                         const Stmt *At, llvm::StringRef What,
                                         Analyses &Shared, ASTContext &Ctx) {
  SourceLocation Where = At->getBeginLoc();
  if (!Kernel.hasAttr<CUDAGlobalAttr>())
    return refusal((What + " is in a function that kernels call, which "
                           "calls may reach with only some threads")
                       .str(),
                   Where);
  if (Kernel.isTemplateInstantiation() ||
      Kernel.getTemplateInstantiationPattern())
    return refusal("the kernel is a template, and an edit of its text would "
                   "go into every instantiation, which warpfix has not each "
                   "shown to allow it",
                   Where);
  if (Shared.BlockMembers.at(At).Result != Membership::AllLanes)
    return refusal(("not every thread of the block provably reaches " + What +
                    ", each the same number of times, so the move would not "
                    "bring every thread to the barrier")
                       .str(),
                   Where);
  if (std::optional<UnmodelledReach> Unmodelled =
          unmodelledReach(Ctx, Kernel, At))
    return refusal(("the analysis shows every thread of the block reaching " +
                    What + ", but " + Unmodelled->Why)
                       .str(),
                   Unmodelled->Where);
  return std::nullopt;
}

} // namespace warpfix
