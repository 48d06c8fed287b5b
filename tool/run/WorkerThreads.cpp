#include "tool/run/WorkerThreads.h"
#include "clang/Basic/Stack.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/thread.h"
#include <algorithm>
#include <atomic>
#include <csignal>
#include <memory>
#include <optional>
#include <sys/resource.h>
#include <vector>

namespace warpfix {

void enableCrashRecovery() {
  llvm::CrashRecoveryContext::Enable();
  // The signals CrashRecoveryContext handles on POSIX systems.
  for (int Signal : {SIGABRT, SIGBUS, SIGFPE, SIGILL, SIGSEGV, SIGTRAP}) {
    struct sigaction Action;
    if (sigaction(Signal, nullptr, &Action) != 0 ||
        Action.sa_handler == SIG_DFL || Action.sa_handler == SIG_IGN)
      continue;
    Action.sa_flags |= SA_ONSTACK;
    sigaction(Signal, &Action, nullptr);
  }
}

void ensureAlternateSignalStack() {
  // Room for the handler and what it runs: the stack trace that
  // CrashRecoveryContext prints, with its symbolizer.
  constexpr size_t Size = 1 << 20;
  thread_local std::unique_ptr<char[]> Memory;
  stack_t Current;
  if (sigaltstack(nullptr, &Current) == 0 && !(Current.ss_flags & SS_DISABLE))
    return;
  // Not zeroed: pages untouched until a signal needs them.
  Memory.reset(new char[Size]);
  stack_t Alternate{};
  Alternate.ss_sp = Memory.get();
  Alternate.ss_size = Size;
  if (sigaltstack(&Alternate, nullptr) != 0)
    Memory.reset();
}

namespace {

unsigned workerStackSize() {
  constexpr rlim_t Least = rlim_t(64) << 20, Most = rlim_t(1) << 30;
  struct rlimit Limit;
  if (getrlimit(RLIMIT_STACK, &Limit) != 0 || Limit.rlim_cur == RLIM_INFINITY)
    return Least;
  return unsigned(std::clamp(Limit.rlim_cur, Least, Most));
}

void prepareThread() {
  // Deeply nested templates need clang to know where this thread's stack
  // begins, so that it can move to a fresh one before running out.
  clang::noteBottomOfStack();
  ensureAlternateSignalStack();
}

} // namespace

void runOnWorkers(size_t Count, unsigned Jobs,
                  llvm::function_ref<void(size_t)> Task) {
  // llvm::ThreadPool takes no stack size; these threads take the next task
  // as they finish one, as its workers do. Even one job runs on a thread of
  // its own, so that a unit meets the same stack whatever -j.
  std::atomic<size_t> Next{0};
  auto Work = [&] {
    prepareThread();
    for (size_t I = Next++; I < Count; I = Next++)
      Task(I);
  };
  std::vector<llvm::thread> Threads;
  std::optional<unsigned> StackSize = workerStackSize();
  size_t ThreadCount = std::max<size_t>(1, std::min<size_t>(Jobs, Count));
  for (size_t T = 0; T < ThreadCount; ++T)
    Threads.emplace_back(StackSize, Work);
  for (llvm::thread &Thread : Threads)
    Thread.join();
}

} // namespace warpfix
