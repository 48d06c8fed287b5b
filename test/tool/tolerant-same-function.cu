// An error in the function that holds the legacy call: the call is reported,
// never fixed, and the note names the error. A member that CUDA 9 made
// private (__half::x) is such an error.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: diff %s %t/k.cu
#include <cuda_fp16.h>

__global__ void k(__half *h, int *o) {
  int v = o[threadIdx.x] + h[threadIdx.x].x;
  v += __shfl_down(v, 1);
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:8: warning: '__shfl_down' is a legacy
  // CHECK-MESSAGES: k.cu:[[@LINE-2]]:8: note: no automatic fix: this translation unit has 1 error, one of them in 'k', which holds this code: {{.*}}k.cu:[[@LINE-3]]:43: no member named 'x' in '__half'
  o[threadIdx.x] = v;
}
// CHECK-MESSAGES: fixed 0 findings in 0 files; 1 remain
