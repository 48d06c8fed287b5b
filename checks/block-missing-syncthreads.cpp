#include "checks/block-missing-syncthreads.h"
#include "checks/RaceWording.h"
#include "checks/analysis/Analyses.h"
#include "llvm/ADT/DenseSet.h"

using namespace clang;

namespace warpfix {

void BlockMissingSyncthreadsCheck::onFunction(const FunctionDecl &Function,
                                              ASTContext &Ctx) {
  Kernels.onFunction(Function, Ctx);
}

void BlockMissingSyncthreadsCheck::onDeclRef(const DeclRefExpr &Ref,
                                             ASTContext &) {
  Kernels.onDeclRef(Ref);
}

void BlockMissingSyncthreadsCheck::onEndOfTranslationUnit() {
  Kernels.analyse([this](const FunctionDecl &Kernel, ASTContext &Ctx) {
    analyseKernel(Kernel, Ctx);
  });
}

void BlockMissingSyncthreadsCheck::analyseKernel(const FunctionDecl &Kernel,
                                                 ASTContext &Ctx) {
  WarpAssumptions::Launches Launches =
      context().analyses(Ctx).Shapes.launchesOf(&Kernel);
  BlockModels Models(Ctx, LargestBlockEvaluations);
  std::vector<Race> WithinWarps = Models.racesIn(Kernel, Launches);
  // A write whose lanes of one warp race, and whose threads of different
  // warps meet too, is warp-missing-syncwarp's finding already: its note
  // says that a __syncthreads() orders it.
  llvm::DenseSet<const Stmt *> ReportedAsWarpRaces;
  if (context().runs("warp-missing-syncwarp"))
    for (const Race &R : WithinWarps)
      if (R.AcrossWarps)
        ReportedAsWarpRaces.insert(R.Write->Statement);
  std::vector<Race> Races = Models.racesAcrossWarps();
  std::vector<const Stmt *> Order;
  llvm::DenseMap<const Stmt *, std::vector<const Race *>> ByStatement;
  for (const Race &R : Races) {
    // A call that warpfix does not follow, given shared memory, touches
    // some element in some threads: unknown, which is no race.
    if (ReportedAsWarpRaces.contains(R.Write->Statement) ||
        R.Write->AnyElement || R.Other->AnyElement)
      continue;
    if (!ByStatement.count(R.Write->Statement))
      Order.push_back(R.Write->Statement);
    ByStatement[R.Write->Statement].push_back(&R);
  }
  for (const Stmt *S : Order)
    reportStatement(ByStatement[S], Launches, Models.largestSkipped(), Ctx);
}

static std::string threadName(int64_t Tid) {
  return "thread " + std::to_string(Tid) + " (warp " +
         std::to_string(Tid / 32) + ", lane " + std::to_string(Tid % 32) + ")";
}

void BlockMissingSyncthreadsCheck::reportStatement(
    const std::vector<const Race *> &Races,
    const WarpAssumptions::Launches &Launches, bool LargestSkipped,
    ASTContext &Ctx) {
  // The clearest witness: a race inside the statement itself, if any.
  const Race &First = **llvm::find_if(Races, [&](const Race *R) {
    return R->Other->Statement == R->Write->Statement || R == Races.back();
  });
  const SourceManager &SM = Ctx.getSourceManager();
  std::string Element = elementName(*First.Write->Array, First.Element,
                                    *First.Write->Access, Ctx);
  std::string Message = "threads of different warps race on shared memory: " +
                        threadName(First.WriterThread) + " writes " + Element +
                        " and " + threadName(First.OtherThread) +
                        (First.Other->IsWrite ? " writes" : " reads") +
                        " it with no __syncthreads() between them" +
                        blockOfWitness(First, Launches);
  if (First.Write->Access->getType().isVolatileQualified())
    Message += "; volatile does not order accesses between threads";
  SourceLocation At = SM.getExpansionLoc(First.Write->Access->getBeginLoc());
  FindingBuilder Finding = report(At, Message);
  for (const Race *R : Races)
    if (R->Other->Statement != R->Write->Statement)
      Finding.note(SM.getExpansionLoc(R->Other->Access->getBeginLoc()),
                   R->Other->IsWrite ? "the other thread writes it here"
                                     : "the other thread reads it here");
  if (LargestSkipped)
    Finding.note(At, "with no launch in sight this kernel was modelled in a "
                     "block of two warps only (a block of 1024 threads would "
                     "cost too much): races that only later warps make are "
                     "not reported");
  Finding.withoutFix(
      At, "no automatic fix: warpfix does not insert __syncthreads(); put "
          "one between the two accesses where every thread of the block "
          "reaches it, and the same number of times");
}

} // namespace warpfix
