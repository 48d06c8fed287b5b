// A full mask on a *_sync primitive that only some lanes reach ("Tutorial de CUDA - Warp"'s
// last kernel, an early return): the mask becomes a ballot of the condition.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --checks=-*,warp-full-mask-divergent %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 0 %warpfix --fix %t/k.cu
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --input-file=%t/k.cu
// RUN: cp %t/k.cu %t/once.cu
// RUN: %expect-exit 0 %warpfix --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=IDEMPOTENT
// RUN: diff %t/once.cu %t/k.cu
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/k.cu %}
// RUN: %if nvcc %{ %nvcc-check -arch=sm_75 %t/k.cu %}
// IDEMPOTENT: 0 findings in 0 files (0 fixable)
#include <climits>

#define FULL_MASK 0xffffffff
constexpr unsigned kAllLanes = ~0u;
const unsigned kEveryone = UINT_MAX;

// "Tutorial de CUDA - Warp": only lanes 0..8 reduce.
__global__ void tutorialLoop(int *s) {
  int idx = threadIdx.x;
  int v = s[idx];
  if (idx <= 8) {
    v += __shfl_down_sync(0xffffffff, v, 4);
    // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: the full mask names every lane of the warp, but only some lanes reach this '__shfl_down_sync'; the others never arrive, so it may hang or read undefined values (Using CUDA Warp-Level Primitives, recommendation 1) [warp-full-mask-divergent]
    // CHECK-MESSAGES: :[[@LINE-2]]:27: note: only some lanes reach this call; the mask is a ballot of the branch conditions, taken before the branch (Using CUDA Warp-Level Primitives, listing 3)
    v += __shfl_down_sync(FULL_MASK, v, 2);
    // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: the full mask
    v += __shfl_down_sync(-1, v, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: the full mask
    __syncwarp();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the full mask names every lane of the warp, but only some lanes reach this '__syncwarp'
  }
  s[idx] = v;
}
// CHECK-FIXES: const unsigned [[M1:warpfix_mask_[0-9]+]] = __ballot_sync(FULL_MASK, idx <= 8);
// CHECK-FIXES-NEXT: if (idx <= 8) {
// CHECK-FIXES-NEXT: v += __shfl_down_sync([[M1]], v, 4);
// CHECK-FIXES: v += __shfl_down_sync([[M1]], v, 2);
// CHECK-FIXES: v += __shfl_down_sync([[M1]], v, 1);
// CHECK-FIXES: __syncwarp([[M1]]);

// An early return on i >= n leaves only part of the last warp.
__global__ void early_return(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  p[i] += __shfl_down_sync(kAllLanes, p[i], 1) + __any_sync(kEveryone, p[i]);
  // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: the full mask
  // CHECK-MESSAGES: :[[@LINE-2]]:61: warning: the full mask
}
// CHECK-FIXES: const unsigned [[M2:warpfix_mask_[0-9]+]] = __ballot_sync(FULL_MASK, !(i >= n));
// CHECK-FIXES: p[i] += __shfl_down_sync([[M2]], p[i], 1) + __any_sync([[M2]], p[i]);

// The named constants are used where every lane takes part too: a fix must not
// leave them unreferenced, which nvcc would warn about.
__global__ void converged(int *p) {
  p[threadIdx.x] = __shfl_xor_sync(kAllLanes, p[threadIdx.x], 1) +
                   __all_sync(kEveryone, p[threadIdx.x]);
}
