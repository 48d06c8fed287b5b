// A thread-named call is not renamed where the new name could find
// something other than the runtime's function: a declaration of the new
// name anywhere in the project's code (a member, a namespace's function, a
// variable), a macro of that name, or a project that declares the old name
// itself (a shim it defines elsewhere). Each keeps its finding, with the
// new name in the note.
// RUN: rm -rf %t && mkdir -p %t
// RUN: sed -n '/^\/\/ MEMBER/,/^\/\/ END/p' %s > %t/member.cu
// RUN: sed -n '/^\/\/ MACRO/,/^\/\/ END/p' %s > %t/macro.cu
// RUN: sed -n '/^\/\/ SHIM/,/^\/\/ END/p' %s > %t/shim.cu
// RUN: mkdir -p %t/original && cp %t/member.cu %t/macro.cu %t/shim.cu %t/original/
// RUN: %expect-exit 1 %warpfix --no-cache --fix %t/member.cu %t/macro.cu %t/shim.cu 2>&1 | FileCheck %s --implicit-check-not=warning:
// RUN: diff %t/original/member.cu %t/member.cu
// RUN: diff %t/original/macro.cu %t/macro.cu
// RUN: diff %t/original/shim.cu %t/shim.cu
// CHECK: macro.cu:4:3: warning: 'cudaThreadExit' is not in CUDA 13's runtime
// CHECK: macro.cu:4:3: note: no automatic fix: 'cudaDeviceReset' is a macro in this translation unit; use cudaDeviceReset()
// CHECK: member.cu:5:12: warning: 'cudaThreadSynchronize' is not in CUDA 13's runtime; CUDA 4 renamed it 'cudaDeviceSynchronize'
// CHECK: member.cu:5:12: note: no automatic fix: the project declares a 'cudaDeviceSynchronize' of its own, which the new name could find instead of the runtime's; use cudaDeviceSynchronize()
// CHECK: member.cu:10:3: warning: 'cudaThreadSetLimit' is not in CUDA 13's runtime
// CHECK: member.cu:10:3: note: no automatic fix: the project declares a 'cudaDeviceSetLimit' of its own
// CHECK: shim.cu:3:3: warning: 'cudaThreadSynchronize' is not in CUDA 13's runtime
// CHECK: shim.cu:3:3: note: no automatic fix: the project declares 'cudaThreadSynchronize' itself, and may define it elsewhere; use cudaDeviceSynchronize()
// CHECK: fixed 0 findings in 0 files; 4 remain

// MEMBER
struct Stream {
  int cudaDeviceSynchronize() { return 1; }
  int wait() {
    return cudaThreadSynchronize();
  }
};
namespace limits { int cudaDeviceSetLimit = 0; }
void grow() {
  cudaThreadSetLimit(cudaLimitStackSize, 4096);
}
// END

// MACRO
#define cudaDeviceReset() cudaSuccess
void quit() {
  cudaThreadExit();
}
// END

// SHIM
void wait_all() {
  cudaThreadSynchronize();
}
cudaError_t cudaThreadSynchronize(void);
// END
