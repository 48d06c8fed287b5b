#include "tool/run/ParallelRunner.h"
#include "tool/run/WorkerThreads.h"
#include <atomic>
#include <mutex>

namespace warpfix {

namespace {
std::atomic<size_t> UnitsNotStarted{0};
} // namespace

bool allUnitsStarted() { return UnitsNotStarted.load() == 0; }

std::vector<TranslationUnitResult> analyseAll(llvm::ArrayRef<std::string> Files,
                                              unsigned Jobs,
                                              const AnalyseOne &Analyse,
                                              ProgressLine &Progress,
                                              llvm::raw_ostream &Messages) {
  std::vector<TranslationUnitResult> Results(Files.size());
  std::vector<bool> Done(Files.size(), false);
  size_t NextInOrder = 0;
  std::mutex Mutex;
  UnitsNotStarted = Files.size();
  auto Run = [&](size_t Index) {
    --UnitsNotStarted;
    Progress.started(Files[Index]);
    TranslationUnitResult Result = Analyse(Index);
    std::lock_guard<std::mutex> Lock(Mutex);
    Results[Index] = std::move(Result);
    Done[Index] = true;
    Progress.finished();
    for (; NextInOrder < Files.size() && Done[NextInOrder]; ++NextInOrder)
      if (!Results[NextInOrder].CompilerMessages.empty())
        Progress.interrupt([&] {
          Messages << Results[NextInOrder].CompilerMessages;
          Messages.flush();
        });
  };
  // One file runs here, on this thread, as --fix's check of it will: freed
  // memory stays with the thread (glibc's arena) that freed it, so its AST's
  // memory is there for the check's parse instead of added to it.
  runOnWorkers(Files.size(), Jobs, Run);
  Progress.clear();
  return Results;
}

} // namespace warpfix
