// A thread-named call is not renamed where `::cudaDeviceX` could find
// something other than the runtime's function, or the old name something
// other than the removed call: a macro of the new name, another declaration
// of the new name in the global namespace, the project's own declaration of
// the old name (a shim, static or extern "C", before or after the call), the
// old or the new name in code this parse skipped (a host-only branch may
// declare or define either), or a macro on the way to the call that skipped
// code names too (it may be defined otherwise for the host). Across units: a
// header's call is not renamed when another unit that reads it resolves the
// name to the project's own function, and no call is renamed when another
// unit of the run defines the old name (the linker gives it every call).
// Each keeps its finding, with the new name in the note, and nothing is
// rewritten.
// RUN: rm -rf %t && mkdir -p %t/original
// RUN: printf 'CheckOptions:\n  cuda-removed-api.RenameThreadCalls: true\n' > %t/original/.warpfix.yaml
// RUN: sed -n '/^\/\/ FILE macro$/,/^\/\/ END/p' %s > %t/original/macro.cu
// RUN: sed -n '/^\/\/ FILE skipped$/,/^\/\/ END/p' %s > %t/original/skipped.cu
// RUN: sed -n '/^\/\/ FILE overload$/,/^\/\/ END/p' %s > %t/original/overload.cu
// RUN: sed -n '/^\/\/ FILE static$/,/^\/\/ END/p' %s > %t/original/static.cu
// RUN: sed -n '/^\/\/ FILE extern$/,/^\/\/ END/p' %s > %t/original/extern.cu
// RUN: sed -n '/^\/\/ FILE a$/,/^\/\/ END/p' %s > %t/original/a.cu
// RUN: sed -n '/^\/\/ FILE b$/,/^\/\/ END/p' %s > %t/original/b.cu
// RUN: sed -n '/^\/\/ FILE common.h$/,/^\/\/ END/p' %s > %t/original/common.h
// RUN: sed -n '/^\/\/ FILE hostshim$/,/^\/\/ END/p' %s > %t/original/hostshim.cu
// RUN: sed -n '/^\/\/ FILE hostcheck$/,/^\/\/ END/p' %s > %t/original/hostcheck.cu
// RUN: sed -n '/^\/\/ FILE shimdef$/,/^\/\/ END/p' %s > %t/original/shimdef.cu
// RUN: sed -n '/^\/\/ FILE caller$/,/^\/\/ END/p' %s > %t/original/caller.cu
// RUN: cp -r %t/original %t/run
// RUN: cd %t/run && %expect-exit 1 %warpfix --no-cache --fix macro.cu skipped.cu overload.cu static.cu extern.cu hostshim.cu hostcheck.cu 2>&1 | FileCheck %s --implicit-check-not=warning:
// RUN: diff -r %t/original %t/run
// CHECK: extern.cu:3:3: warning: 'cudaThreadSynchronize' is not in CUDA 13's runtime; CUDA 4 renamed it 'cudaDeviceSynchronize'
// CHECK: extern.cu:3:3: note: no automatic fix: the project declares 'cudaThreadSynchronize' itself (at extern.cu:5), so the name may call its own function; call cudaDeviceSynchronize instead
// CHECK: hostcheck.cu:8:14: warning: 'cudaThreadSynchronize' is not in CUDA 13's runtime
// CHECK: hostcheck.cu:8:14: note: no automatic fix: macro 'CHECK' is named in code this parse skipped too, where it may be defined to use its argument otherwise; call cudaDeviceSynchronize instead
// CHECK: hostshim.cu:3:24: warning: 'cudaThreadSynchronize' is not in CUDA 13's runtime
// CHECK: hostshim.cu:3:24: note: not analysed: this branch is compiled only for the host, and warpfix parses the device's side; call cudaDeviceSynchronize instead
// CHECK: hostshim.cu:5:14: warning: 'cudaThreadSynchronize' is not in CUDA 13's runtime
// CHECK: hostshim.cu:5:14: note: no automatic fix: 'cudaThreadSynchronize' is named in code this parse skipped (a branch that only the host takes, or another #if's), which may declare or define it otherwise; call cudaDeviceSynchronize instead
// CHECK: macro.cu:4:3: warning: 'cudaThreadExit' is not in CUDA 13's runtime
// CHECK: macro.cu:4:3: note: no automatic fix: 'cudaDeviceReset' is a macro in this translation unit; call cudaDeviceReset instead
// CHECK: overload.cu:5:3: warning: 'cudaThreadSetLimit' is not in CUDA 13's runtime
// CHECK: overload.cu:5:3: note: no automatic fix: '::cudaDeviceSetLimit' would also find the declaration at overload.cu:3; call cudaDeviceSetLimit instead
// CHECK: skipped.cu:6:3: warning: 'cudaThreadSynchronize' is not in CUDA 13's runtime
// CHECK: skipped.cu:6:3: note: no automatic fix: 'cudaDeviceSynchronize' is named in code this parse skipped (a branch that only the host takes, or another #if's), which may declare or define it otherwise; call cudaDeviceSynchronize instead
// CHECK: static.cu:4:3: warning: 'cudaThreadSynchronize' is not in CUDA 13's runtime
// CHECK: static.cu:4:3: note: no automatic fix: the project declares 'cudaThreadSynchronize' itself (at static.cu:2)
// CHECK: fixed 0 findings in 0 files; 8 remain

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

// Another unit defines the old call (extern "C", as the runtime declared
// it): the linker gives it every unit's calls of that name, so none is
// renamed, though no file is shared.
// RUN: cp -r %t/original %t/linked
// RUN: cd %t/linked && %expect-exit 1 %warpfix --no-cache --fix caller.cu shimdef.cu 2>&1 | FileCheck %s --check-prefix=LINKED
// RUN: diff %t/original/caller.cu %t/linked/caller.cu
// LINKED: caller.cu:2:14: warning: 'cudaThreadSynchronize' is not in CUDA 13's runtime
// LINKED: caller.cu:2:14: note: no automatic fix: another translation unit of this run defines its own 'cudaThreadSynchronize' (at shimdef.cu:2), which the linker gives every call of that name
// LINKED: fixed 0 findings in 0 files; 1 remain

// FILE hostshim
#ifndef __CUDA_ARCH__
extern "C" cudaError_t cudaThreadSynchronize(void) { return cudaSuccess; }
#endif
int main() { cudaThreadSynchronize(); return 0; }
// END

// FILE hostcheck
#ifdef __CUDA_ARCH__
#define CHECK(call) (void)(call)
#else
#define CHECK(call) check_impl((call), #call)
void check_impl(cudaError_t e, const char *what);
#endif
int main() { CHECK(cudaThreadSynchronize()); return 0; }
// END

// FILE shimdef
extern "C" cudaError_t cudaThreadSynchronize(void) { return cudaSuccess; }
// END

// FILE caller
int main() { cudaThreadSynchronize(); return 0; }
// END

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
