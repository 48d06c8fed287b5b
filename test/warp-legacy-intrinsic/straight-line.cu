// Legacy calls in a kernel's straight-line code are reached by every lane, so
// they get the full mask, spelled the way the file already spells it.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 0 %warpfix --fix %t/k.cu
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --input-file=%t/k.cu
// RUN: cp %t/k.cu %t/once.cu
// RUN: %expect-exit 0 %warpfix --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=IDEMPOTENT
// RUN: diff %t/once.cu %t/k.cu
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/k.cu %}
// RUN: %if nvcc %{ %nvcc-check -arch=sm_75 %t/k.cu %}

#define FULL_MASK 0xffffffff

__global__ void reduce(const int *in, int *out, float *f, unsigned *votes) {
  int v = in[threadIdx.x];
  float x = f[threadIdx.x];
  v += __shfl_down(v, 16);
  // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: '__shfl_down' is a legacy warp intrinsic that CUDA 13 no longer compiles; use '__shfl_down_sync' with an explicit member mask [warp-legacy-intrinsic]
  // CHECK-MESSAGES: :[[@LINE-2]]:8: note: every lane of the warp reaches this call, so the full mask is exact
  // CHECK-FIXES: v += __shfl_down_sync(FULL_MASK, v, 16);
  v += __shfl_up  (v, 8, 16);
  // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: '__shfl_up' is a legacy
  // CHECK-FIXES: v += __shfl_up_sync  (FULL_MASK, v, 8, 16);
  x = __shfl(x, 0) + __shfl_xor(x, 1, 8);
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: '__shfl' is a legacy
  // CHECK-MESSAGES: :[[@LINE-2]]:22: warning: '__shfl_xor' is a legacy
  // CHECK-FIXES: x = __shfl_sync(FULL_MASK, x, 0) + __shfl_xor_sync(FULL_MASK, x, 1, 8);
  unsigned b = __ballot(v > 3);
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: '__ballot' is a legacy
  // CHECK-FIXES: unsigned b = __ballot_sync(FULL_MASK, v > 3);
  int a = __any(v) + __all(v == 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: '__any' is a legacy
  // CHECK-MESSAGES: :[[@LINE-2]]:22: warning: '__all' is a legacy
  // CHECK-FIXES: int a = __any_sync(FULL_MASK, v) + __all_sync(FULL_MASK, v == 0);
  // A legacy call nested in another's argument: both are fixed.
  v += __shfl(__shfl_xor(v, 2), 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: '__shfl' is a legacy
  // CHECK-MESSAGES: :[[@LINE-2]]:15: warning: '__shfl_xor' is a legacy
  // CHECK-FIXES: v += __shfl_sync(FULL_MASK, __shfl_xor_sync(FULL_MASK, v, 2), 0);
  out[threadIdx.x] = v + a;
  f[threadIdx.x] = x;
  votes[threadIdx.x] = b;
}

// IDEMPOTENT: 0 findings in 0 files (0 fixable)
