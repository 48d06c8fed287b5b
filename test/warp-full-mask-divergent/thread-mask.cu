// A full mask in a helper that all lanes call at one place and only some at
// another (issue 15, item 3): the mask becomes a new last parameter of the
// helper, and each call passes its own lanes. A helper with a legacy call as
// well gets the same parameter from both checks' fixes, once.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 1 %warpfix --no-cache --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=SUMMARY
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --strict-whitespace --input-file=%t/k.cu
// RUN: %expect-exit 1 %warpfix --no-cache --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=SECOND
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/k.cu %}
// SUMMARY: 4 findings in 1 file (3 fixable)
// SECOND: 1 finding in 1 file (0 fixable)

__device__ float reduce(float v) {
  v += __shfl_xor_sync(0xffffffff, v, 16);
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: the full mask names every lane of the warp, but only some lanes reach this '__shfl_xor_sync'
  // CHECK-MESSAGES: :[[@LINE-3]]:18: note: 'reduce' does not know which lanes of the warp call it (only some do, or different ones at different calls)
  v += __shfl_xor(v, 8);
  // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: '__shfl_xor' is a legacy
  // CHECK-MESSAGES: :[[@LINE-6]]:18: note: 'reduce' does not know which lanes of the warp call it (only some do, or different ones at different calls)
  __syncwarp();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the full mask names every lane of the warp, but only some lanes reach this '__syncwarp'
  return v;
}
// CHECK-FIXES:{{^}}__device__ float reduce(float v, unsigned warpfix_mask) {
// CHECK-FIXES-NEXT:{{^}}  v += __shfl_xor_sync(warpfix_mask, v, 16);
// CHECK-FIXES:{{^}}  v += __shfl_xor_sync(warpfix_mask, v, 8);
// CHECK-FIXES:{{^}}  __syncwarp(warpfix_mask);

// Called in both arms of one branch: two ballots would go before it, which
// one fix cannot hold; refused.
__device__ int arms(int v) {
  return __shfl_sync(0xffffffff, v, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: the full mask names every lane of the warp
  // CHECK-MESSAGES: note: the mask cannot be passed in as a new parameter: two edits of this change fall on one place (the calls of 'arms' in the two arms of one branch, say)
}
// CHECK-FIXES:{{^}}  return __shfl_sync(0xffffffff, v, 0);

// A caller that is a template: every instantiation passes the same mask.
template <int N> __global__ void tmplCaller(float *io, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  io[i] = reduce(io[i]) * N;
}
template __global__ void tmplCaller<1>(float *, int);
template __global__ void tmplCaller<2>(float *, int);
// CHECK-FIXES:{{^}}  const unsigned [[T:warpfix_mask_[0-9]+]] = __ballot_sync(0xffffffff, !(i >= n));
// CHECK-FIXES-NEXT:{{^}}  if (i >= n)
// CHECK-FIXES:{{^}}  io[i] = reduce(io[i], [[T]]) * N;

__global__ void k(float *io, int *p) {
  io[threadIdx.x] = reduce(io[threadIdx.x]);
  if (threadIdx.x < 8) {
    io[threadIdx.x] = reduce(io[threadIdx.x]);
  }
  if (threadIdx.x < 4) {
    p[threadIdx.x] = arms(p[threadIdx.x]);
  } else {
    p[threadIdx.x] = arms(p[threadIdx.x]);
  }
}
// CHECK-FIXES:{{^}}  io[threadIdx.x] = reduce(io[threadIdx.x], 0xffffffff);
// CHECK-FIXES-NEXT:{{^}}  const unsigned [[M:warpfix_mask_[0-9]+]] = __ballot_sync(0xffffffff, threadIdx.x < 8);
// CHECK-FIXES-NEXT:{{^}}  if (threadIdx.x < 8) {
// CHECK-FIXES-NEXT:{{^}}    io[threadIdx.x] = reduce(io[threadIdx.x], [[M]]);
