// Calls that only some lanes reach get a mask computed by __ballot_sync of the
// branch condition, right before the outermost divergent statement (Using CUDA Warp-Level Primitives,
// listing 3); nested conditions chain their ballots.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 0 %warpfix --fix %t/k.cu
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --strict-whitespace --input-file=%t/k.cu
// RUN: cp %t/k.cu %t/once.cu
// RUN: %expect-exit 0 %warpfix --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=IDEMPOTENT
// RUN: diff %t/once.cu %t/k.cu
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/k.cu %}
// RUN: %if nvcc %{ %nvcc-check -arch=sm_75 %t/k.cu %}
// IDEMPOTENT: 0 findings in 0 files (0 fixable)

#define FULL_MASK 0xffffffff
#define NUM_ELEMENTS 20

// Using CUDA Warp-Level Primitives, listing 3, as pre-Volta code wrote it.
__global__ void listing3(const int *input, int *out) {
  int val = 0;
  if (threadIdx.x < NUM_ELEMENTS) {
    val = input[threadIdx.x];
    for (int offset = 16; offset > 0; offset /= 2)
      val += __shfl_down(val, offset);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: '__shfl_down' is a legacy
    // CHECK-MESSAGES: :[[@LINE-2]]:14: note: only some lanes reach this call; the mask is a ballot of the branch conditions, taken before the branch (Using CUDA Warp-Level Primitives, listing 3)
  }
  out[threadIdx.x] = val;
}
// CHECK-FIXES:{{^}}  int val = 0;
// CHECK-FIXES-NEXT:{{^}}  const unsigned [[M1:warpfix_mask_[0-9]+]] = __ballot_sync(FULL_MASK, threadIdx.x < NUM_ELEMENTS);
// CHECK-FIXES-NEXT:{{^}}  if (threadIdx.x < NUM_ELEMENTS) {
// CHECK-FIXES:{{^}}      val += __shfl_down_sync([[M1]], val, offset);

// An early return: the lanes that go on are those where it was not taken.
__global__ void early_return(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int v = p[i];
  v += __shfl_xor(v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: '__shfl_xor' is a legacy
  p[i] = v;
}
// CHECK-FIXES:{{^}}  const unsigned [[M2:warpfix_mask_[0-9]+]] = __ballot_sync(FULL_MASK, !(i >= n));
// CHECK-FIXES-NEXT:{{^}}  if (i >= n)
// CHECK-FIXES:{{^}}  v += __shfl_xor_sync([[M2]], v, 1);

// Nested conditions chain: the inner ballot runs under the outer mask. Both
// calls under the inner branch share one ballot.
__global__ void nested(int *p, int n) {
  int lane = threadIdx.x % 32;
  if (lane < n) {
    int v = p[lane];
    if (v > 0) {
      v = __shfl(v, 0) + __any(v > 10);
      // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: '__shfl' is a legacy
      // CHECK-MESSAGES: :[[@LINE-2]]:26: warning: '__any' is a legacy
    }
    p[lane] = v;
  }
}
// CHECK-FIXES:{{^}}  const unsigned [[M3:warpfix_mask_[0-9]+]] = __ballot_sync(FULL_MASK, lane < n);
// CHECK-FIXES-NEXT:{{^}}  if (lane < n) {
// CHECK-FIXES-NEXT:{{^}}    int v = p[lane];
// CHECK-FIXES-NEXT:{{^}}    const unsigned [[M4:warpfix_mask_[0-9]+]] = __ballot_sync([[M3]], v > 0);
// CHECK-FIXES-NEXT:{{^}}    if (v > 0) {
// CHECK-FIXES-NEXT:{{^}}      v = __shfl_sync([[M4]], v, 0) + __any_sync([[M4]], v > 10);

// An else branch, and an unbraced if inside an if: the conditions combine in
// one ballot, in evaluation order, so short-circuiting still guards them.
__global__ void else_branches(int *p) {
  int lane = threadIdx.x & 31;
  int own = p[lane];
  if (lane & 1)
    p[0] = 1;
  else
    p[lane] = __ballot(p[lane] > 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: '__ballot' is a legacy
  if (lane > 2)
    if (own != 0)
      p[lane] += __shfl_up(p[lane], 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: '__shfl_up' is a legacy
}
// CHECK-FIXES:{{^}}  const unsigned [[M5:warpfix_mask_[0-9]+_else]] = __ballot_sync(FULL_MASK, !(lane & 1));
// CHECK-FIXES-NEXT:{{^}}  if (lane & 1)
// CHECK-FIXES:{{^}}    p[lane] = __ballot_sync([[M5]], p[lane] > 0);
// CHECK-FIXES:{{^}}  const unsigned [[M6:warpfix_mask_[0-9_]+]] = __ballot_sync(FULL_MASK, (lane > 2) && (own != 0));
// CHECK-FIXES-NEXT:{{^}}  if (lane > 2)
// CHECK-FIXES:{{^}}      p[lane] += __shfl_up_sync([[M6]], p[lane], 1);

// Conditions that select whole warps do not split one: the full mask stays,
// with a note on the whole-warp assumption.
__global__ void whole_warps(int *p) {
  int warp = threadIdx.x / 32;
  if (threadIdx.x < 64) {
    if (warp == 1)
      p[warp] = __shfl(p[threadIdx.x], 3);
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: '__shfl' is a legacy
    // CHECK-MESSAGES: :[[@LINE-2]]:17: note: every lane of the warp reaches this call, so the full mask is exact
    // CHECK-MESSAGES: :[[@LINE-3]]:17: note: this assumes blocks are made of whole warps (blockDim.x a multiple of 32); pass --assume-whole-warps=false if they are not
  }
}
// CHECK-FIXES:{{^}}      p[warp] = __shfl_sync(FULL_MASK, p[threadIdx.x], 3);

// Uniform conditions and loops with uniform trip counts keep every lane.
__global__ void uniform_control(int *p, int n, int iterations) {
  if (blockIdx.x > 3)
    return;
  int v = p[threadIdx.x];
  for (int i = 0; i < iterations; ++i) {
    if (n > 2)
      v += __shfl_down(v, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: '__shfl_down' is a legacy
    // CHECK-MESSAGES: :[[@LINE-2]]:12: note: every lane of the warp reaches this call, so the full mask is exact
  }
  p[threadIdx.x] = v;
}
// CHECK-FIXES:{{^}}      v += __shfl_down_sync(FULL_MASK, v, 1);
