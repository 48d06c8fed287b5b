// An error outside every function taints the declaration that holds it and
// the functions that use that declaration, directly, through a typedef or
// through a variable's type; other code keeps its fixes. A missing header
// taints nothing by itself, but a block of #if, #ifdef or #else after it
// that tests a macro not defined there may have been compiled differently
// had the header been found: the functions in or around it get no fix.
// Include guards and macros that are defined do not count.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --input-file=%t/k.cu
#ifndef TOLERANT_DECLARATION_ERRORS_GUARD
#define TOLERANT_DECLARATION_ERRORS_GUARD
#define KNOWN_FLAG 1
#include "config_that_is_not_here.h"

struct Broken { UnknownType field; int ok; };
typedef struct Broken broken_t;
__device__ int broken_table[4] = {undeclared_value, 1, 2, 3};

__device__ int through_typedef(broken_t *b, int v) { return b->ok + __shfl_down(v, 1); }
// CHECK-MESSAGES: k.cu:[[@LINE-1]]:69: warning: '__shfl_down' is a legacy
// CHECK-MESSAGES: k.cu:[[@LINE-2]]:69: note: no automatic fix: this translation unit has 3 errors, one of them in 'through_typedef', which holds this code: it uses 'Broken', whose declaration has an error: {{.*}}k.cu:16:17: unknown type name 'UnknownType'
// CHECK-FIXES: __device__ int through_typedef(broken_t *b, int v) { return b->ok + __shfl_down(v, 1); }
__global__ void calls_through_typedef(broken_t *b, int *p) { p[threadIdx.x] = through_typedef(b, p[threadIdx.x]); }

__global__ void reads_table(int *p) {
  p[threadIdx.x] = __shfl_xor(broken_table[threadIdx.x % 4], 1);
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:20: warning: '__shfl_xor' is a legacy
  // CHECK-MESSAGES: k.cu:[[@LINE-2]]:20: note: no automatic fix: this translation unit has 3 errors, one of them in 'reads_table', which holds this code: it uses 'broken_table', whose declaration has an error: {{.*}}k.cu:18:35: use of undeclared identifier 'undeclared_value'
  // CHECK-FIXES: p[threadIdx.x] = __shfl_xor(broken_table[threadIdx.x % 4], 1);
}

__global__ void uses_neither(int *p) {
  int v = p[threadIdx.x];
  p[threadIdx.x] = __shfl_xor(v, 1);
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:20: warning: '__shfl_xor' is a legacy
  // CHECK-MESSAGES: k.cu:[[@LINE-2]]:20: note: every lane of the warp reaches this call
  // CHECK-MESSAGES: k.cu:[[@LINE-3]]:20: note: analysed despite errors
  // CHECK-FIXES: p[threadIdx.x] = __shfl_xor_sync(0xffffffff, v, 1);
}

// The missing header might define HALF_WARPS, and then only half the warp
// would reach the shuffle.
__global__ void configured(int *p) {
  int v = p[threadIdx.x];
#ifdef HALF_WARPS
  if (threadIdx.x % 32 < 16)
#endif
  v += __shfl_xor(v, 2);
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:8: warning: '__shfl_xor' is a legacy
  // CHECK-MESSAGES: k.cu:[[@LINE-2]]:8: note: no automatic fix: this translation unit has 3 errors, one of them in 'configured', which holds this code: the #if at k.cu:[[@LINE-5]] tests 'HALF_WARPS', which is not defined there; a header that is missing may define it: {{.*}}k.cu:14:10: 'config_that_is_not_here.h' file not found
  // CHECK-MESSAGES: k.cu:[[@LINE-3]]:8: note: analysed despite errors
  p[threadIdx.x] = v;
}

// Which of the two is compiled depends on a macro the header may define.
#if USE_FAST_PATH // a comment's words are not macros
__global__ void fast(int *p) { p[0] = __shfl_down(p[0], 1); }
#else
__global__ void slow(int *p) { p[0] = __shfl_up(p[0], 1); }
// CHECK-MESSAGES: k.cu:[[@LINE-1]]:39: warning: '__shfl_up' is a legacy
// CHECK-MESSAGES: k.cu:[[@LINE-2]]:39: note: no automatic fix: this translation unit has 3 errors, one of them in 'slow', which holds this code: the #if at k.cu:[[@LINE-5]] tests 'USE_FAST_PATH'
// CHECK-MESSAGES: k.cu:[[@LINE-3]]:39: note: analysed despite errors
#endif

// A macro that is defined is what it is.
#if KNOWN_FLAG
__global__ void known(int *p) { p[0] = __shfl_up(p[0], 1); }
// CHECK-MESSAGES: k.cu:[[@LINE-1]]:40: warning: '__shfl_up' is a legacy
// CHECK-MESSAGES: k.cu:[[@LINE-2]]:40: note: every lane of the warp reaches this call
// CHECK-MESSAGES: k.cu:[[@LINE-3]]:40: note: analysed despite errors
// CHECK-FIXES: __global__ void known(int *p) { p[0] = __shfl_up_sync(0xffffffff, p[0], 1); }
#endif

#endif // TOLERANT_DECLARATION_ERRORS_GUARD
// CHECK-MESSAGES: fixed 2 findings in 1 file; 4 remain
