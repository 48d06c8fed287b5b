// A thread-named call is not renamed where `::cudaDeviceX` could find
// something other than the runtime's function, or the old name something
// other than the removed call: a macro of the new name (parsed, or in a
// branch this parse skipped), another declaration of the new name in the
// global namespace, or the project's own declaration of the old name (a
// shim, static or extern "C", before or after the call). Across units: a
// header's call is not renamed when another unit that reads it resolves the
// name to the project's own function. Each keeps its finding, with the new
// name in the note, and nothing is rewritten.
// RUN: rm -rf %t && mkdir -p %t/original
// RUN: sed -n '/^\/\/ FILE macro$/,/^\/\/ END/p' %s > %t/original/macro.cu
// RUN: sed -n '/^\/\/ FILE skipped$/,/^\/\/ END/p' %s > %t/original/skipped.cu
// RUN: sed -n '/^\/\/ FILE overload$/,/^\/\/ END/p' %s > %t/original/overload.cu
// RUN: sed -n '/^\/\/ FILE static$/,/^\/\/ END/p' %s > %t/original/static.cu
// RUN: sed -n '/^\/\/ FILE extern$/,/^\/\/ END/p' %s > %t/original/extern.cu
// RUN: sed -n '/^\/\/ FILE a$/,/^\/\/ END/p' %s > %t/original/a.cu
// RUN: sed -n '/^\/\/ FILE b$/,/^\/\/ END/p' %s > %t/original/b.cu
// RUN: sed -n '/^\/\/ FILE common.h$/,/^\/\/ END/p' %s > %t/original/common.h
// RUN: cp -r %t/original %t/run
// RUN: cd %t/run && %expect-exit 1 %warpfix --no-cache --fix macro.cu skipped.cu overload.cu static.cu extern.cu 2>&1 | FileCheck %s --implicit-check-not=warning:
// RUN: diff -r %t/original %t/run
// CHECK: extern.cu:3:3: warning: 'cudaThreadSynchronize' is not in CUDA 13's runtime; CUDA 4 renamed it 'cudaDeviceSynchronize'
// CHECK: extern.cu:3:3: note: no automatic fix: the project declares 'cudaThreadSynchronize' itself (at extern.cu:5), so the name may call its own function; call cudaDeviceSynchronize instead
// CHECK: macro.cu:4:3: warning: 'cudaThreadExit' is not in CUDA 13's runtime
// CHECK: macro.cu:4:3: note: no automatic fix: 'cudaDeviceReset' is a macro in this translation unit; call cudaDeviceReset instead
// CHECK: overload.cu:5:3: warning: 'cudaThreadSetLimit' is not in CUDA 13's runtime
// CHECK: overload.cu:5:3: note: no automatic fix: '::cudaDeviceSetLimit' would also find the declaration at overload.cu:3; call cudaDeviceSetLimit instead
// CHECK: skipped.cu:6:3: warning: 'cudaThreadSynchronize' is not in CUDA 13's runtime
// CHECK: skipped.cu:6:3: note: no automatic fix: a file of this unit defines a macro 'cudaDeviceSynchronize' (skipped.cu), in code this parse may have skipped; call cudaDeviceSynchronize instead
// CHECK: static.cu:4:3: warning: 'cudaThreadSynchronize' is not in CUDA 13's runtime
// CHECK: static.cu:4:3: note: no automatic fix: the project declares 'cudaThreadSynchronize' itself (at static.cu:2)
// CHECK: fixed 0 findings in 0 files; 5 remain

// The header alone, through a.cu, is renamed; with b.cu, which defines its
// own cudaThreadSynchronize before including it, it is not.
// RUN: cp -r %t/original %t/alone
// RUN: cd %t/alone && %warpfix --no-cache --fix --header-filter=.* a.cu 2>&1 | FileCheck %s --check-prefix=ALONE
// RUN: grep -q '::cudaDeviceSynchronize' %t/alone/common.h
// ALONE: fixed 1 finding in 1 file; 0 remain
// RUN: cp -r %t/original %t/both
// RUN: cd %t/both && %expect-exit 1 %warpfix --no-cache --fix --header-filter=.* a.cu b.cu 2>&1 | FileCheck %s --check-prefix=BOTH
// RUN: diff %t/original/common.h %t/both/common.h
// BOTH: common.h:2:40: warning: 'cudaThreadSynchronize' is not in CUDA 13's runtime; CUDA 4 renamed it 'cudaDeviceSynchronize'
// BOTH: common.h:2:40: note: no automatic fix: in another translation unit that reads this code, this name calls the project's own 'cudaThreadSynchronize' (declared at b.cu:2)
// BOTH: fixed 0 findings in 0 files; 1 remain

// FILE macro
#define cudaDeviceReset() cudaSuccess
void quit() {
  cudaThreadExit();
}
// END

// FILE skipped
#ifndef __CUDA_ARCH__
#define cudaDeviceSynchronize() traced_sync()
#endif
void wait_all() {
  cudaThreadSynchronize();
}
// END

// FILE overload
struct Bytes { size_t n; };
cudaError_t cudaDeviceSetLimit(cudaLimit, Bytes);
void grow() {
  cudaThreadSetLimit(cudaLimitStackSize, 4096);
}
// END

// FILE static
static cudaError_t cudaThreadSynchronize(void) { return cudaSuccess; }
void wait_all() {
  cudaThreadSynchronize();
}
// END

// FILE extern
void wait_all() {
  cudaThreadSynchronize();
}
extern "C" cudaError_t cudaThreadSynchronize(void);
// END

// FILE common.h
inline cudaError_t sync_all() { return cudaThreadSynchronize(); }
// END

// FILE a
#include "common.h"
int main() { return sync_all(); }
// END

// FILE b
cudaError_t cudaThreadSynchronize(void) { return cudaSuccess; }
#include "common.h"
int other() { return sync_all(); }
// END
