#include "tool/run/ParallelRunner.h"
#include "clang/Basic/Stack.h"
#include "llvm/Support/ThreadPool.h"
#include <atomic>
#include <mutex>

namespace warpfix {

namespace {
std::atomic<size_t> UnitsNotStarted{0};
} // namespace

bool allUnitsStarted() { return UnitsNotStarted.load() == 0; }

std::vector<TranslationUnitResult>
analyzeAll(llvm::ArrayRef<std::string> Files, unsigned Jobs,
           const AnalyzeOne &Analyze, ProgressLine &Progress,
           llvm::raw_ostream &Messages) {
  std::vector<TranslationUnitResult> Results(Files.size());
  std::vector<bool> Done(Files.size(), false);
  size_t NextInOrder = 0;
  std::mutex Mutex;
  UnitsNotStarted = Files.size();
  auto Run = [&](size_t Index) {
    --UnitsNotStarted;
    // Deeply nested templates need clang to know where this thread's stack
    // begins, so that it can move to a fresh one before running out.
    clang::noteBottomOfStack();
    Progress.started(Files[Index]);
    TranslationUnitResult Result = Analyze(Index);
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
  if (Jobs <= 1 || Files.size() <= 1) {
    for (size_t I = 0; I < Files.size(); ++I)
      Run(I);
  } else {
    llvm::DefaultThreadPool Pool(llvm::hardware_concurrency(Jobs));
    for (size_t I = 0; I < Files.size(); ++I)
      Pool.async([&Run, I] { Run(I); });
    Pool.wait();
  }
  Progress.clear();
  return Results;
}

} // namespace warpfix
