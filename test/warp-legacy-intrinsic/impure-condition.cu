// A branch condition is evaluated a second time, in the hoisted ballot, only
// when that changes nothing: a toolkit function with side effects (printf)
// is not evaluated again; a pure one (__popc) is.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 1 %warpfix --fix %t/k.cu
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --input-file=%t/k.cu
// RUN: cp %t/k.cu %t/once.cu
// RUN: %expect-exit 1 %warpfix --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=IDEMPOTENT
// RUN: diff %t/once.cu %t/k.cu
// IDEMPOTENT: 1 finding in 1 file (0 fixable)
#include <cstdio>

__global__ void prints_in_condition(int *p) {
  int v = p[threadIdx.x];
  if (printf("%d\n", v) > 3)
    v = __shfl_xor(v, 1);
  p[threadIdx.x] = v;
}

__global__ void pure_call_in_condition(int *p) {
  int v = p[threadIdx.x];
  if (__popc(v) > 3)
    v = __shfl_xor(v, 1);
  p[threadIdx.x] = v;
}

// CHECK-MESSAGES: :17:9: warning: '__shfl_xor' is a legacy warp intrinsic that CUDA 13 no longer compiles; use '__shfl_xor_sync' with an explicit member mask
// CHECK-MESSAGES: :16:7: note: no automatic fix: the branch condition has side effects, volatile reads or calls, so it cannot be evaluated again in a ballot
// CHECK-MESSAGES: :17:9: note: candidate rewrite: __shfl_xor_sync(<mask>, ...) where <mask> names the lanes that reach this call
// CHECK-MESSAGES: :24:9: warning: '__shfl_xor' is a legacy warp intrinsic that CUDA 13 no longer compiles; use '__shfl_xor_sync' with an explicit member mask
// CHECK-MESSAGES: :24:9: note: only some lanes reach this call; the mask is a ballot of the branch conditions, taken before the branch (Using CUDA Warp-Level Primitives, listing 3)
// CHECK-FIXES: const unsigned warpfix_mask_23 = __ballot_sync(0xffffffff, __popc(v) > 3);
// CHECK-FIXES: v = __shfl_xor_sync(warpfix_mask_23, v, 1);
