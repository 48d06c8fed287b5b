#include "checks/block-missing-syncthreads.h"
#include "checks/BarrierPlacement.h"
#include "checks/RaceWording.h"
#include "checks/analysis/Analyses.h"
#include "checks/analysis/BlockReach.h"
#include "checks/analysis/Exits.h"
#include "checks/analysis/Parents.h"
#include "llvm/ADT/SmallPtrSet.h"

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
  // The models of the block, as warp-missing-syncwarp builds them: it leaves
  // the writes reported here to this check.
  Models.racesIn(Kernel, Launches);
  std::vector<Race> Races = Models.racesAcrossWarps();
  for (const std::vector<const Race *> &Statement :
       racesByWritingStatement(Races, [](const Race &) { return true; }))
    reportStatement(Kernel, Statement, Launches, Models.largestSkipped(), Ctx);
}

static std::string threadName(int64_t Tid) {
  return "thread " + std::to_string(Tid) + " (warp " +
         std::to_string(Tid / 32) + ", lane " + std::to_string(Tid % 32) + ")";
}

void BlockMissingSyncthreadsCheck::reportStatement(
    const FunctionDecl &Kernel, const std::vector<const Race *> &Races,
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
  // A pair of accesses may race in both directions: one note for each.
  llvm::SmallPtrSet<const Expr *, 4> Noted;
  for (const Race *R : Races)
    if (R->Other->Statement != R->Write->Statement &&
        Noted.insert(R->Other->Access).second)
      Finding.note(SM.getExpansionLoc(R->Other->Access->getBeginLoc()),
                   R->Other->IsWrite ? "the other thread writes it here"
                                     : "the other thread reads it here");
  if (LargestSkipped)
    Finding.note(At, "with no launch in sight this kernel was modelled in a "
                     "block of two warps only (a block of 1024 threads would "
                     "cost too much): races that only later warps make are "
                     "not reported");
  fixWithBarrier(Kernel, Races, Finding, Ctx);
}

bool BlockMissingSyncthreadsCheck::fixWithBarrier(
    const FunctionDecl &Kernel, const std::vector<const Race *> &Races,
    FindingBuilder &Finding, ASTContext &Ctx) {
  SourceLocation At = Races.front()->Write->Access->getBeginLoc();
  // Threads that meet only in a block size warpfix chose, with no launch
  // in sight, may never meet in the code's own launches: beyond two warps,
  // or where the elements depend on the block's size. A kernel written for
  // 256 threads meets itself in the model of 1024.
  if (llvm::any_of(Races, [](const Race *R) {
        return !R->FromLaunch &&
               (R->ShapeDependent ||
                R->ModelThreads > SharedAccessAnalysis::TwoWarps);
      })) {
    Finding.withoutFix(At, "no automatic fix: no launch is in sight, and the "
                           "threads meet only in a modelled block of more "
                           "than two warps, or through accesses that depend "
                           "on the block's size; if the code's launches make "
                           "them meet, put a __syncthreads() between them");
    return false;
  }
  // One edit of a template's text goes into every instantiation, and only
  // this one was shown to need it and to reach it with every thread.
  if (Kernel.isTemplateInstantiation() ||
      Kernel.getTemplateInstantiationPattern()) {
    Finding.withoutFix(At, "no automatic fix: the kernel is a template, and "
                           "a __syncthreads() in its text would go into "
                           "every instantiation, which warpfix has not each "
                           "shown to reach it with every thread");
    return false;
  }
  std::optional<std::vector<BarrierPlace>> Places =
      barrierPlaces(Races, {"__syncthreads()", "thread", ""}, Finding, Ctx);
  if (!Places)
    return false;
  assert(!Places->empty() && "every race gets a place or a refusal");
  Analyses &Shared = context().analyses(Ctx);
  for (const BarrierPlace &Place : *Places) {
    SourceLocation Where = Place.At->getBeginLoc();
    // A function the kernel calls may be called where only some threads
    // are, in this unit or another.
    if (enclosingFunction(Ctx, Place.At) != &Kernel) {
      Finding.withoutFix(Where, "no automatic fix: the __syncthreads() "
                                "that orders the accesses would go into a "
                                "function the kernel calls");
      return false;
    }
    // Every thread reaches the place, in loops whose trip counts and exits
    // are the same for the whole block: the same number of times each.
    Membership Threads = Shared.BlockMembers.at(Place.At);
    if (Threads.Result != Membership::AllLanes) {
      std::string Why = "no automatic fix: a __syncthreads() here would "
                        "order the accesses, but not every thread of the "
                        "block provably reaches it";
      if (Threads.Result == Membership::Unknown && !Threads.Reason.empty())
        Why += ": " + Threads.Reason;
      else if (Threads.Result == Membership::Conditional)
        Why += ": threads part before it under a thread-dependent condition";
      Finding.withoutFix(Where, Why);
      if (Threads.Result == Membership::Conditional &&
          !Threads.Conditions.empty())
        Finding.note(Threads.Conditions.front()
                         .Conjuncts.front()
                         .Condition->getBeginLoc(),
                     "the threads part here");
      return false;
    }
    if (std::optional<UnmodelledReach> Unmodelled =
            unmodelledReach(Ctx, Kernel, Place.At)) {
      Finding.withoutFix(Where, "no automatic fix: a __syncthreads() here "
                                "would order the accesses, and the analysis "
                                "shows every thread of the block reaching "
                                "it, but " +
                                    Unmodelled->Why);
      Finding.note(Unmodelled->Where, "what the analysis does not model");
      return false;
    }
    // At the end of a loop body, past its last statement: every thread
    // must come out of that statement at its end too.
    if (Place.AtEnd && !exitsOf(Ctx, Place.At, /*CountContinue=*/true,
                                &Shared.Lanes.exitingFunctions())
                            .empty()) {
      Finding.withoutFix(Where, "no automatic fix: the __syncthreads() that "
                                "orders one iteration's accesses before the "
                                "next one's would stand at the end of the "
                                "loop body, which some threads may leave "
                                "early");
      return false;
    }
    if (!insertBarrier(Place, "__syncthreads();", Finding, Ctx))
      return false;
  }
  const BarrierPlace &First = Places->front();
  if (First.AtEnd)
    Finding.note(parentStmt(Ctx, parentStmt(Ctx, First.At))->getBeginLoc(),
                 "every thread of the block runs this loop's body to its "
                 "end, each the same number of times: a __syncthreads() "
                 "there orders the accesses");
  else
    Finding.note(First.At->getBeginLoc(),
                 "every thread of the block reaches this statement, each "
                 "the same number of times: a __syncthreads() before it "
                 "orders the accesses");
  return true;
}

} // namespace warpfix
