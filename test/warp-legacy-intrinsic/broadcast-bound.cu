// A broadcast, `__shfl(x, 0)` or `__shfl_sync(m, x, k)` with k the same in
// every lane and the width the whole warp, gives every lane that takes part
// the same value: lane k's. A loop bounded by it runs the same number of
// iterations in each of them (issue 15, item 8b). Only where every lane that
// enters the function makes the call is lane k sure to take part.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 0 %warpfix --no-cache --fix %t/k.cu
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --strict-whitespace --input-file=%t/k.cu
// RUN: cp %t/k.cu %t/once.cu
// RUN: %expect-exit 0 %warpfix --no-cache --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=IDEMPOTENT
// RUN: diff %t/once.cu %t/k.cu
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/k.cu %}
// IDEMPOTENT: 0 findings in 0 files (0 fixable)
// The near misses are in broadcast-bound-divergent.cu.

__global__ void broadcast_count(const int *count, int *io) {
  int n = __shfl(count[threadIdx.x], 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: '__shfl' is a legacy
  // CHECK-MESSAGES: :[[@LINE-2]]:11: note: every lane of the warp reaches this call, so the full mask is exact
  int acc = io[threadIdx.x];
  for (int j = 0; j < n; ++j)
    acc += __shfl(acc, (threadIdx.x + 1) & 31);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: '__shfl' is a legacy
  // CHECK-MESSAGES: :[[@LINE-2]]:12: note: every lane of the warp reaches this call, so the full mask is exact
  io[threadIdx.x] = acc;
}
// CHECK-FIXES:{{^}}  int n = __shfl_sync(0xffffffff, count[threadIdx.x], 0);
// CHECK-FIXES:{{^}}    acc += __shfl_sync(0xffffffff, acc, (threadIdx.x + 1) & 31);

// A source lane other than 0 exists in whole warps only: said in a note.
__global__ void broadcast_from_leader(const int *count, int *io, int leader) {
  int n = __shfl_sync(0xffffffff, count[threadIdx.x], leader, 32);
  int acc = io[threadIdx.x];
  for (int j = 0; j < n; ++j)
    acc += __shfl_xor(acc, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: '__shfl_xor' is a legacy
  // CHECK-MESSAGES: :[[@LINE-2]]:12: note: every lane of the warp reaches this call, so the full mask is exact
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: this assumes blocks are made of whole warps
  io[threadIdx.x] = acc;
}
// CHECK-FIXES:{{^}}    acc += __shfl_xor_sync(0xffffffff, acc, 1);

// Modern code: the full mask in the loop is right, so nothing is reported.
__global__ void broadcast_modern(const int *count, int *io) {
  int n = __shfl_sync(0xffffffff, count[threadIdx.x], 0);
  int acc = io[threadIdx.x];
  for (int j = 0; j < n; ++j)
    acc += __shfl_down_sync(0xffffffff, acc, 1);
  io[threadIdx.x] = acc;
}
