// Races between statements get a __syncwarp() between them; a race across a
// loop's back edge gets one at the end of the body; under a lane-dependent
// branch the barrier's mask is a ballot of the branch condition.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --checks=-*,warp-missing-syncwarp %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 0 %warpfix --fix %t/k.cu
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --strict-whitespace --input-file=%t/k.cu
// RUN: cp %t/k.cu %t/once.cu
// RUN: %expect-exit 0 %warpfix --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=IDEMPOTENT
// RUN: diff %t/once.cu %t/k.cu
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/k.cu %}
// IDEMPOTENT: 0 findings in 0 files (0 fixable)

__global__ void rotate(int *p) {
  __shared__ int s[64];
  int t = threadIdx.x;
  s[t] = p[t];
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: lanes of one warp race on shared memory: lane 0 writes s[0] and lane 31 reads it
  // CHECK-MESSAGES: :[[@LINE+1]]:11: note: the other lane reads it here
  int v = s[(t + 1) % 32 + (t / 32) * 32];
  p[t] = v;
}
// CHECK-FIXES:{{^}}  s[t] = p[t];
// CHECK-FIXES:{{^}}  __syncwarp(0xffffffff);
// CHECK-FIXES:{{^}}  int v = s[(t + 1) % 32 + (t / 32) * 32];

__global__ void back_edge(int *p, int rounds) {
  __shared__ int s[64];
  int t = threadIdx.x;
  for (int r = 0; r < 4; ++r) {
    int left = s[(t + 31) % 32];
    s[t] = left + p[t];
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: lanes of one warp race on shared memory
  }
  p[t] = s[t];
}
// CHECK-FIXES:{{^}}    int left = s[(t + 31) % 32];
// CHECK-FIXES-NEXT:{{^}}    __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT:{{^}}    s[t] = left + p[t];
// CHECK-FIXES:{{^}}    __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT:{{^}}  }

__global__ void half_warp(int *p) {
  __shared__ int s[32];
  int lane = threadIdx.x % 32;
  if (lane < 16) {
    s[lane] += s[lane + 8];
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: lanes of one warp race on shared memory: lane 8 writes s[8] and lane 0 reads it
    s[lane] += s[lane + 4];
    // CHECK-MESSAGES: :[[@LINE-1]]:5: note: the same rewrite orders this race too
  }
  p[threadIdx.x] = s[lane];
}
// CHECK-FIXES:{{^}}  const unsigned [[M:warpfix_mask_[0-9]+]] = __ballot_sync(0xffffffff, lane < 16);
// CHECK-FIXES-NEXT:{{^}}  if (lane < 16) {
// CHECK-FIXES-NEXT:{{^}}    auto [[A:warpfix_acc_[0-9]+]] = s[lane];
// CHECK-FIXES-NEXT:{{^}}    [[A]] += s[lane + 8];
// CHECK-FIXES-NEXT:{{^}}    __syncwarp([[M]]);
// CHECK-FIXES-NEXT:{{^}}    s[lane] = [[A]];
// CHECK-FIXES-NEXT:{{^}}    __syncwarp([[M]]);

// In blocks of one warp: in larger blocks the warps would meet at the same
// elements, which no __syncwarp() orders (across-warps.cu).
void launch(int *p) {
  back_edge<<<1, 32>>>(p, 4);
  half_warp<<<1, 32>>>(p);
}
