// The threads that analyse translation units, and what makes a crash on one
// of them cost only its unit.
//
// Stack overflow is contained like any other crash. A deep recursion (a
// device call chain thousands of calls long, clang on thousands of nested
// unary operators) ends in a SIGSEGV raised when no stack is left to run a
// handler on. CrashRecoveryContext installs its handlers without
// SA_ONSTACK, so the kernel killed the process, losing every other unit's
// results and fixes. With the handlers set to run on an alternate stack, and
// every thread that analyses a unit given one, the overflow unwinds to the
// unit's RunSafely like any other crash.
//
// And a unit meets the same stack limit whether it runs alone (on the main
// thread) or in parallel: a pool thread's stack is glibc's default, 2 MiB
// where `ulimit -s` is unlimited, while the main thread's then has no limit,
// so a unit could crash in a parallel run and not in the command printed to
// reproduce it alone.
#ifndef WARPFIX_TOOL_RUN_WORKERTHREADS_H
#define WARPFIX_TOOL_RUN_WORKERTHREADS_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include <cstddef>

namespace warpfix {

/// CrashRecoveryContext::Enable(), with its signal handlers set to run on
/// the thread's alternate signal stack. Once, before any thread starts.
void enableCrashRecovery();

/// Gives the calling thread an alternate signal stack, unless it has one
/// (the main thread gets one from LLVM's own signal handling). Kept for the
/// thread's life.
void ensureAlternateSignalStack();

/// Task(0) ... Task(Count - 1), on Jobs threads whose stack is the main
/// thread's limit (at least 8 MiB; 64 MiB where it is unlimited), or on the
/// calling thread when Jobs or Count is 1. Each thread is ready for clang's
/// stack checks and for a stack overflow.
void runOnWorkers(size_t Count, unsigned Jobs,
                  llvm::function_ref<void(size_t)> Task);

} // namespace warpfix

#endif
