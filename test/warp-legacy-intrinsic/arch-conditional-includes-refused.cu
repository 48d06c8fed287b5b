// A helper that a header calls, where only a skipped branch of an #if on the
// architecture includes that header, keeps its signature: the header's call,
// which no parse for this architecture reads, would not pass a new mask
// parameter. The finding is reported without a fix, and the note points at
// that call (arch-conditional-includes.cu has the rest).
// RUN: %{copy-to-k} && cp -r %S/Inputs/arch-conditional-includes %t/inc
// RUN: %expect-exit 1 %warpfix --no-cache --header-filter='.*' %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 1 %warpfix --no-cache --header-filter='.*' --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=SUMMARY
// RUN: diff %s %t/k.cu
// SUMMARY: 1 finding in 1 file (0 fixable)

__device__ int scanStep(int v) { return v + __shfl_up(v, 1); }
// CHECK-MESSAGES: k.cu:[[@LINE-1]]:45: warning: '__shfl_up' is a legacy
// CHECK-MESSAGES: old_step.cuh:2:40: note: the mask cannot be passed in as a new parameter: 'scanStep' is named in code that this parse skipped
// CHECK-MESSAGES: k.cu:[[@LINE+10]]:9: note: no automatic fix: 'scanStep' is called here by only some lanes of the warp

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 700
#include "inc/old_step.cuh"
#endif

__global__ void kernel(int *out) {
  int v = out[threadIdx.x];
  v = scanStep(v);
  if (threadIdx.x % 32 < 8)
    v = scanStep(v);
  out[threadIdx.x] = v;
}
