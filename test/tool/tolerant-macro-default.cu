// A missing header may define a macro that the file gives a default of its
// own, `#ifndef X` / `#define X value`: the value compiled may then differ
// from the one clang saw. The functions that use such a macro (or a macro
// that expands to it) get no fix; the functions that do not are fixed.
// Macros defined in an include guard, or unconditionally, do not count.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --input-file=%t/k.cu
#ifndef MACRO_DEFAULT_GUARD
#define MACRO_DEFAULT_GUARD
#define ALWAYS 16
#include "tuning.h"
// CHECK-MESSAGES: k.cu:[[@LINE-1]]:10: error: 'tuning.h' file not found
#ifndef HALF_WARP
#define HALF_WARP 16
#endif
#define HALF_OF(v) ((v) < HALF_WARP)

__global__ void uses_default(int *p) {
  int v = p[threadIdx.x];
  if (threadIdx.x % 32 < HALF_WARP)
    v += __shfl_xor(v, 1);
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:10: warning: '__shfl_xor' is a legacy
  // CHECK-MESSAGES: k.cu:[[@LINE-2]]:10: note: only some lanes reach this call
  // CHECK-MESSAGES: k.cu:[[@LINE-3]]:10: note: no automatic fix: this translation unit has 1 error, one of them in 'uses_default', which holds this code: 'HALF_WARP' has the value that the block of the #if at k.cu:[[@LINE-11]] tests 'HALF_WARP', which is not defined there; a header that is missing may define it: {{.*}}k.cu:[[@LINE-13]]:10: 'tuning.h' file not found
  // CHECK-FIXES: v += __shfl_xor(v, 1);
  p[threadIdx.x] = v;
}

__global__ void uses_it_through_a_macro(int *p) {
  int v = p[threadIdx.x];
  if (HALF_OF(threadIdx.x % 32))
    v += __shfl_down(v, 1);
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:10: warning: '__shfl_down' is a legacy
  // CHECK-MESSAGES: k.cu:[[@LINE-2]]:10: note: only some lanes reach this call
  // CHECK-MESSAGES: k.cu:[[@LINE-3]]:10: note: no automatic fix: {{.*}} 'HALF_WARP' has the value
  // CHECK-FIXES: v += __shfl_down(v, 1);
  p[threadIdx.x] = v;
}

__global__ void plain(int *p) {
  int v = p[threadIdx.x] + ALWAYS;
  v += __shfl_up(v, 1);
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:8: warning: '__shfl_up' is a legacy
  // CHECK-MESSAGES: k.cu:[[@LINE-2]]:8: note: every lane of the warp reaches this call
  // CHECK-MESSAGES: k.cu:[[@LINE-3]]:8: note: analysed despite errors
  // CHECK-FIXES: v += __shfl_up_sync(0xffffffff, v, 1);
  p[threadIdx.x] = v;
}
#endif
