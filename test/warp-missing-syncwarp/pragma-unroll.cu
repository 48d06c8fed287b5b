// A `#pragma unroll` belongs to the loop below it: a barrier that goes before
// the loop goes above the pragma, or the pragma would lose its loop (and the
// file would not compile).
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 0 %warpfix --no-cache --fix %t/k.cu
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --strict-whitespace --input-file=%t/k.cu
// RUN: %expect-exit 0 %warpfix --no-cache --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=IDEMPOTENT
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/k.cu %}
// IDEMPOTENT: 0 findings in 0 files (0 fixable)

__global__ void pragmas(int *out) {
  __shared__ int x[64];
  unsigned t = threadIdx.x;
  // CHECK-MESSAGES: :[[@LINE+1]]:3: warning: lanes of one warp race on shared memory: lane 0 writes x[0] and lane 1 reads it
  x[t] = t;
#pragma unroll 4
  for (int k = 0; k < 4; k++) out[k * 64 + t] = x[t ^ 1];
  int v = out[t];
  if (t < 16) {
    #pragma unroll
    // CHECK-MESSAGES: :[[@LINE+1]]:42: warning: '__shfl_xor' is a legacy warp intrinsic
    for (int k = 1; k < 16; k *= 2) v += __shfl_xor(v, k, 16);
  }
  out[t] = v;
}
// CHECK-FIXES:{{^}}  x[t] = t;
// CHECK-FIXES-NEXT:{{^}}  __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT:{{^}}#pragma unroll 4
// CHECK-FIXES-NEXT:{{^}}  for (int k = 0; k < 4; k++) out[k * 64 + t] = x[t ^ 1];
// CHECK-FIXES:{{^}}  const unsigned warpfix_mask_{{[0-9]+}} = __ballot_sync(0xffffffff, t < 16);
// CHECK-FIXES-NEXT:{{^}}  if (t < 16) {
