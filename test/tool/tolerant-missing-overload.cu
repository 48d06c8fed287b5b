// A missing header may declare an overload that a call would choose over
// the function clang saw: `scaled(h)` with a float argument calls
// `scaled(int)` here, but `scaled(float)` where the header is found. A fix
// that adds an argument to such a call (a helper's new mask parameter) is
// withheld. A call whose arguments match exactly is one that no other
// overload can take over quietly, and gets its argument.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --input-file=%t/k.cu
#include "more_overloads.h"
// CHECK-MESSAGES: k.cu:[[@LINE-1]]:10: error: 'more_overloads.h' file not found

__device__ int scaled(int v) { return __shfl_xor(v, 1) * 2; }
// CHECK-MESSAGES: k.cu:[[@LINE-1]]:39: warning: '__shfl_xor' is a legacy
// CHECK-MESSAGES: k.cu:[[@LINE-2]]:39: note: no automatic fix: this translation unit has 1 error: 'scaled' is called here with an argument that needs a conversion, a default argument or a deduced template argument: a header that is missing may declare an overload that this call would choose instead, so no argument is added to it: {{.*}}k.cu:10:10: 'more_overloads.h' file not found
// CHECK-FIXES: __device__ int scaled(int v) { return __shfl_xor(v, 1) * 2; }

__device__ int exact(int v) { return __shfl_up(v, 1) + 1; }
// CHECK-MESSAGES: k.cu:[[@LINE-1]]:38: warning: '__shfl_up' is a legacy
// CHECK-MESSAGES: k.cu:[[@LINE-2]]:16: note: 'exact' does not know which lanes of the warp call it
// CHECK-FIXES: __device__ int exact(int v, unsigned warpfix_mask) { return __shfl_up_sync(warpfix_mask, v, 1) + 1; }

__global__ void k(int *p, const float *h) {
  int v = p[threadIdx.x];
  v += scaled(h[threadIdx.x]);
  v += exact(v);
  // CHECK-FIXES: v += exact(v, 0xffffffff);
  if (threadIdx.x % 32 < 16) {
    v += scaled(v);
    v += exact(v);
  }
  p[threadIdx.x] = v;
}
