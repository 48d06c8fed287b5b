// Branches nested on one line each get a ballot, named after the line; the
// inner one is told apart by its column. With one name for both, the inner
// declaration's initializer would read its own variable, uninitialized
// (nvcc: "variable is used before its value is set"), and the call would
// get a garbage mask.
// RUN: %{copy-to-k}
// RUN: %expect-exit 0 %warpfix --no-cache --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=SUMMARY
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --strict-whitespace --input-file=%t/k.cu
// RUN: cp %t/k.cu %t/once.cu
// RUN: %expect-exit 0 %warpfix --no-cache --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=IDEMPOTENT
// RUN: diff %t/once.cu %t/k.cu
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/k.cu %}
// SUMMARY: fixed 2 findings in 1 file; 0 remain
// IDEMPOTENT: 0 findings in 0 files (0 fixable)

__global__ void nested(int *out, int n, int m) {
  int lane = threadIdx.x & 31;
  int acc = lane;
  if (lane < n) { if (lane < m) { acc += __shfl_up(acc, 1); } }
  out[threadIdx.x] = acc;
}
// CHECK-FIXES:      {{^}}  const unsigned warpfix_mask_19 = __ballot_sync(0xffffffff, lane < n);
// CHECK-FIXES-NEXT: {{^}}  if (lane < n) { const unsigned warpfix_mask_19_19 = __ballot_sync(warpfix_mask_19, lane < m); if (lane < m) { acc += __shfl_up_sync(warpfix_mask_19_19, acc, 1); } }

__global__ void three_deep(int *out, int n, int m) {
  int lane = threadIdx.x & 31;
  int acc = lane;
  if (lane < n) { if (lane < m) { if (lane & 1) { acc += __shfl_xor(acc, 2); } } }
  out[threadIdx.x] = acc;
}
// CHECK-FIXES:      {{^}}  const unsigned warpfix_mask_28 = __ballot_sync(0xffffffff, lane < n);
// CHECK-FIXES-NEXT: {{^}}  if (lane < n) { const unsigned warpfix_mask_28_19 = __ballot_sync(warpfix_mask_28, lane < m); if (lane < m) { const unsigned warpfix_mask_28_35 = __ballot_sync(warpfix_mask_28_19, lane & 1); if (lane & 1) { acc += __shfl_xor_sync(warpfix_mask_28_35, acc, 2); } } }
