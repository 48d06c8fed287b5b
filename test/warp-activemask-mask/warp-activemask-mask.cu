// __activemask() as the member mask of a *_sync primitive: directly, through
// local variables, a macro, or a wrapper function (PyTorch's ACTIVE_MASK()).
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --checks=-*,warp-activemask-mask %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 0 %warpfix --fix %t/k.cu
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --input-file=%t/k.cu
// RUN: cp %t/k.cu %t/once.cu
// RUN: %expect-exit 0 %warpfix --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=IDEMPOTENT
// RUN: diff %t/once.cu %t/k.cu
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/k.cu %}
// RUN: %if nvcc %{ %nvcc-check -arch=sm_75 %t/k.cu %}
// IDEMPOTENT: 0 findings in 0 files (0 fixable)

#define FULL_MASK 0xffffffff
#define NUM_ELEMENTS 20
#define ACTIVE_LANES() __activemask()
__device__ __forceinline__ unsigned int ACTIVE_MASK() { return __activemask(); }

// Using CUDA Warp-Level Primitives, listing 5: the mask is taken inside the branch.
__global__ void listing5(const int *input, int *out) {
  int val = 0;
  if (threadIdx.x < NUM_ELEMENTS) {
    unsigned mask = __activemask();
    val = input[threadIdx.x];
    for (int offset = 16; offset > 0; offset /= 2)
      val += __shfl_down_sync(mask, val, offset);
    // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: __activemask() is the member mask of '__shfl_down_sync': it says which lanes happen to be converged here, not which lanes should take part (Using CUDA Warp-Level Primitives, listing 5) [warp-activemask-mask]
    // CHECK-MESSAGES: :[[@LINE-5]]:21: note: the mask is taken here
    // CHECK-MESSAGES: :[[@LINE-6]]:21: note: only some lanes reach this call; the mask is a ballot of the branch conditions, taken before the branch (Using CUDA Warp-Level Primitives, listing 3)
  }
  out[threadIdx.x] = val;
}
// CHECK-FIXES: const unsigned [[M1:warpfix_mask_[0-9]+]] = __ballot_sync(FULL_MASK, threadIdx.x < NUM_ELEMENTS);
// CHECK-FIXES-NEXT: if (threadIdx.x < NUM_ELEMENTS) {
// CHECK-FIXES-NEXT: unsigned mask = [[M1]];

// Through several assignments, a macro and a wrapper.
__global__ void indirect(int *p) {
  int v = p[threadIdx.x];
  if (v > 0) {
    unsigned taken = ACTIVE_LANES();
    unsigned copy = taken;
    v = __all_sync(copy, v);
    // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: __activemask() is the member mask of '__all_sync'
    // CHECK-MESSAGES: :[[@LINE-4]]:22: note: the mask is taken here
    __syncwarp(ACTIVE_MASK());
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: __activemask() is the member mask of '__syncwarp'
  }
  p[threadIdx.x] = v;
}
// CHECK-FIXES: const unsigned [[M2:warpfix_mask_[0-9]+]] = __ballot_sync(FULL_MASK, v > 0);
// CHECK-FIXES-NEXT: if (v > 0) {
// CHECK-FIXES-NEXT: unsigned taken = [[M2]];
// CHECK-FIXES: __syncwarp([[M2]]);

// In converged code the lanes that take part are all of them.
__global__ void converged(int *p) {
  p[threadIdx.x] += __shfl_xor_sync(__activemask(), p[threadIdx.x], 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:37: warning: __activemask() is the member mask of '__shfl_xor_sync'
  // CHECK-MESSAGES: :[[@LINE-2]]:37: note: every lane of the warp reaches this call, so the full mask is exact
}
// CHECK-FIXES: p[threadIdx.x] += __shfl_xor_sync(FULL_MASK, p[threadIdx.x], 1);
