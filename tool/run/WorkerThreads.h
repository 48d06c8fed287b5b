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
// Every unit runs on such a thread, with one stack size whatever -j: a pool
// thread's stack was glibc's default, 2 MiB, where `ulimit -s` is unlimited,
// while the main thread's then had no limit, so a unit could crash in a
// parallel run and not in the command printed to reproduce it alone. The
// size is 64 MiB, or the main thread's limit where that is larger (up to
// 1 GiB): clang's parser takes about 5 KiB a level of nesting and has no
// stack checks, so 8 MiB held about 1,600 nested unary operators.
//
// Not contained: an overflow on a thread that clang starts itself, with an
// 8 MiB stack and no alternate signal stack, where a template instantiation
// runs out of room (clang::runWithSufficientStackSpace). Between two of its
// checks clang uses less than it checks for; no input was found that
// overflows there.
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

/// Task(0) ... Task(Count - 1), on up to Jobs threads (at least one) of the
/// stack size above, each ready for a stack overflow.
void runOnWorkers(size_t Count, unsigned Jobs,
                  llvm::function_ref<void(size_t)> Task);

} // namespace warpfix

#endif
