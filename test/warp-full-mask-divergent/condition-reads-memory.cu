// A full mask under a branch whose condition reads memory that a lane
// writes inside the branch: tested again after a ballot, the condition may
// disagree with it, so it is computed once into a variable that the ballot
// and the branch both read. An arm of an else-if chain cannot be: no fix.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --checks=-*,warp-full-mask-divergent %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 1 %warpfix --checks=-*,warp-full-mask-divergent --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=FIXED
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --strict-whitespace --input-file=%t/k.cu
// RUN: cp %t/k.cu %t/once.cu
// RUN: %expect-exit 1 %warpfix --checks=-*,warp-full-mask-divergent --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=IDEMPOTENT
// RUN: diff %t/once.cu %t/k.cu
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/k.cu %}
// FIXED: fixed 2 findings in 1 file; 1 remain
// IDEMPOTENT: fixed 0 findings in 0 files; 1 remain

__global__ void flag_cleared_in_branch(int *out, const int *in) {
  __shared__ int ready[32];
  int lane = threadIdx.x & 31;
  int v = in[threadIdx.x];
  ready[lane] = v > 0;
  __syncwarp();
  if (ready[lane]) {
    ready[(lane + 1) & 31] = 0;
    v += __shfl_down_sync(0xffffffff, v, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: the full mask names every lane of the warp, but only some lanes reach this '__shfl_down_sync'
  } else {
    v -= __shfl_xor_sync(0xffffffff, v, 2);
    // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: the full mask names every lane of the warp, but only some lanes reach this '__shfl_xor_sync'
  }
  out[threadIdx.x] = v;
}

__global__ void chain_arm(int *out, int *data) {
  int lane = threadIdx.x & 31;
  int v = lane;
  if (lane < 4) {
    v = 0;
  } else if (data[lane] > 0) {
    data[lane ^ 1] = 0;
    v += __shfl_down_sync(0xffffffff, v, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: the full mask names every lane of the warp, but only some lanes reach this '__shfl_down_sync'
    // CHECK-MESSAGES: :[[@LINE-4]]:14: note: no automatic fix: the branch condition reads memory that another lane may write between a ballot taken before the branch and the branch's own test of it
  }
  out[threadIdx.x] = v;
}
void launch(int *o, const int *i, int *d) {
  flag_cleared_in_branch<<<1, 32>>>(o, i);
  chain_arm<<<1, 32>>>(o, d);
}

// CHECK-FIXES:{{^}}  const bool warpfix_mask_[[M:[0-9]+]]_taken = ready[lane];
// CHECK-FIXES-NEXT:{{^}}  const unsigned warpfix_mask_[[M]] = __ballot_sync(0xffffffff, warpfix_mask_[[M]]_taken);
// CHECK-FIXES-NEXT:{{^}}  if (warpfix_mask_[[M]]_taken) {
// CHECK-FIXES-NEXT:{{^}}    ready[(lane + 1) & 31] = 0;
// CHECK-FIXES-NEXT:{{^}}    v += __shfl_down_sync(warpfix_mask_[[M]], v, 1);
// CHECK-FIXES:{{^}}    v -= __shfl_xor_sync(~warpfix_mask_[[M]], v, 2);
// CHECK-FIXES:{{^}}  } else if (data[lane] > 0) {
// CHECK-FIXES:{{^}}    v += __shfl_down_sync(0xffffffff, v, 1);
