// After a missing header, a default of `#ifndef X` / `#define X value` used
// outside every function is followed too. In an #if or #elif condition it
// decides which code is compiled: the functions in and around that block get
// no fix, nor does the code that calls them, uses what the block declares, or
// uses a macro it defines. In a declaration (`__shared__ int tile[TILE];`),
// the code that uses the declaration gets none; before one, as a specifier,
// that declaration is in doubt. A block that a default does not decide (its
// #elif never read) costs nothing.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --input-file=%t/k.cu
// RUN: %expect-exit 1 %warpfix --no-cache %t/k.cu 2>&1 | FileCheck %s --check-prefix=AGAIN
// AGAIN: 5 findings in 1 file (0 fixable)
#include "config.h"
// CHECK-MESSAGES: k.cu:[[@LINE-1]]:10: error: 'config.h' file not found
#ifndef USE_ASM
#define USE_ASM 1
#endif
#ifndef TILE
#define TILE 64
#endif
#ifndef EXPORT
#define EXPORT
#endif
#define ALWAYS 1

#if TILE > 128
__device__ int helper(int v) { return v; }
#elif USE_ASM == 1
__device__ int helper(int v) { return v + 1; }
#define TWICE(v) ((v) * 2)
#else
__device__ int helper(int v) { return __shfl(v, 0); }
#define TWICE(v) (v)
#endif

#if ALWAYS
__device__ int untouched(int v) { return v - 1; }
#elif USE_ASM == 2
__device__ int untouched(int v) { return v; }
#endif

__shared__ int tile[TILE];
struct Row {
  int cells[TILE];
};

__global__ void calls_helper(int *p) {
  int v = helper(p[threadIdx.x]);
  v += __shfl_xor(v, 1);
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:8: warning: '__shfl_xor' is a legacy
  // CHECK-MESSAGES: k.cu:[[@LINE-2]]:8: note: no automatic fix: this translation unit has 1 error, one of them in 'helper', which this code calls: the condition at k.cu:29 decides which code of the #if at k.cu:27 is compiled, and 'USE_ASM' has the value that the block of the #if at k.cu:16 tests 'USE_ASM', which is not defined there; a header that is missing may define it: {{.*}}k.cu:14:10: 'config.h' file not found
  // CHECK-FIXES: v += __shfl_xor(v, 1);
  p[threadIdx.x] = v;
}

__global__ void uses_twice(int *p) {
  int v = TWICE(p[threadIdx.x]);
  v += __shfl_down(v, 1);
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:8: warning: '__shfl_down' is a legacy
  // CHECK-MESSAGES: k.cu:[[@LINE-2]]:8: note: no automatic fix: {{.*}} in 'uses_twice', which holds this code: 'TWICE' is defined in the block of the #if at k.cu:27, which tests 'TILE', which has the value that the block of the #if at k.cu:19 tests 'TILE'
  // CHECK-FIXES: v += __shfl_down(v, 1);
  p[threadIdx.x] = v;
}

__global__ void uses_tile(int *p) {
  tile[threadIdx.x] = p[threadIdx.x];
  int v = __shfl_up(p[0], 1);
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:11: warning: '__shfl_up' is a legacy
  // CHECK-MESSAGES: k.cu:[[@LINE-2]]:11: note: no automatic fix: {{.*}} in 'uses_tile', which holds this code: it uses 'tile', whose declaration depends on a macro: 'TILE' has the value that the block of the #if at k.cu:19 tests 'TILE'
  // CHECK-FIXES: int v = __shfl_up(p[0], 1);
  p[threadIdx.x] = v;
}

__global__ void uses_row(Row *r, int *p) {
  int v = __shfl_up(r->cells[0], 1);
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:11: warning: '__shfl_up' is a legacy
  // CHECK-MESSAGES: k.cu:[[@LINE-2]]:11: note: no automatic fix: {{.*}} it uses 'Row', whose declaration depends on a macro: 'TILE' has
  // CHECK-FIXES: int v = __shfl_up(r->cells[0], 1);
  p[threadIdx.x] = v;
}

EXPORT __global__ void exported(int *p) {
  int v = p[threadIdx.x];
  v += __shfl_xor(v, 2);
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:8: warning: '__shfl_xor' is a legacy
  // CHECK-MESSAGES: k.cu:[[@LINE-2]]:8: note: no automatic fix: {{.*}} in 'exported', which holds this code: 'EXPORT' has the value that the block of the #if at k.cu:22 tests 'EXPORT'
  // CHECK-FIXES: v += __shfl_xor(v, 2);
  p[threadIdx.x] = v;
}

__global__ void independent(int *p) {
  int v = untouched(p[threadIdx.x]);
  v += __shfl_up(v, 1);
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:8: warning: '__shfl_up' is a legacy
  // CHECK-MESSAGES: k.cu:[[@LINE-2]]:8: note: every lane of the warp reaches this call
  // CHECK-MESSAGES: k.cu:[[@LINE-3]]:8: note: analysed despite errors
  // CHECK-FIXES: v += __shfl_up_sync(0xffffffff, v, 1);
  p[threadIdx.x] = v;
}
