// A helper that all lanes call at one place and only some lanes at another
// (issue 15, item 3): its member mask comes in through a new last parameter,
// added to every declaration, and every call passes its own lanes: the full
// mask, or a ballot of its branch taken before the branch (NVIDIA, Using CUDA Warp-Level Primitives).
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 0 %warpfix --no-cache --fix %t/k.cu
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --strict-whitespace --input-file=%t/k.cu
// RUN: %expect-exit 0 %warpfix --no-cache --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=SECOND
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/k.cu %}
// SECOND: 0 findings in 0 files (0 fixable)

#define FULL 0xffffffffu

// A prototype first, then the definition: both get the parameter.
__device__ int warpSum(int v);

__device__ int warpSum(int v) {
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down(v, offset);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: '__shfl_down' is a legacy
  // CHECK-MESSAGES: :[[@LINE-4]]:16: note: 'warpSum' does not know which lanes of the warp call it (only some do, or different ones at different calls), so its member mask comes in through a new last parameter 'warpfix_mask', which every call passes
  // CHECK-MESSAGES: :[[@LINE+34]]:21: note: every lane of the warp makes this call, so it passes the full mask
  // CHECK-MESSAGES: :[[@LINE+42]]:9: note: only some lanes make this call, so it passes a ballot of the branch conditions, taken before the branch (Using CUDA Warp-Level Primitives, listing 3)
  // CHECK-MESSAGES: :[[@LINE+56]]:11: note: only some lanes make this call, so it passes a ballot
  return v;
}
// CHECK-FIXES:{{^}}__device__ int warpSum(int v, unsigned warpfix_mask);
// CHECK-FIXES:{{^}}__device__ int warpSum(int v, unsigned warpfix_mask) {
// CHECK-FIXES-NEXT:{{^}}  for (int offset = 16; offset > 0; offset /= 2)
// CHECK-FIXES-NEXT:{{^}}    v += __shfl_down_sync(warpfix_mask, v, offset);

// Several legacy calls in one helper, and no parameters: every fix carries
// the same edits of the declaration and the calls, which merge into one.
__device__ unsigned votes(void);
__device__ unsigned votes(
) {
  unsigned odd = __ballot(threadIdx.x & 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: '__ballot' is a legacy
  // CHECK-MESSAGES: :[[@LINE-4]]:21: note: 'votes' does not know which lanes of the warp call it (only some do, or different ones at different calls)
  // CHECK-MESSAGES: :[[@LINE+17]]:22: note: every lane of the warp makes this call, so it passes the full mask
  // CHECK-MESSAGES: :[[@LINE+25]]:24: note: only some lanes make this call, so it passes a ballot
  int all = __all(odd != 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: '__all' is a legacy
  // CHECK-MESSAGES: :[[@LINE-9]]:21: note: 'votes' does not know which lanes of the warp call it (only some do, or different ones at different calls)
  // CHECK-MESSAGES: :[[@LINE+12]]:22: note: every lane of the warp makes this call, so it passes the full mask
  // CHECK-MESSAGES: :[[@LINE+20]]:24: note: only some lanes make this call, so it passes a ballot
  return all ? odd : 0u;
}
// CHECK-MESSAGES-NOT: warning:
// CHECK-FIXES:{{^}}__device__ unsigned votes(unsigned warpfix_mask);
// CHECK-FIXES-NEXT:{{^}}__device__ unsigned votes(unsigned warpfix_mask) {
// CHECK-FIXES-NEXT:{{^}}  unsigned odd = __ballot_sync(warpfix_mask, threadIdx.x & 1);
// CHECK-FIXES:{{^}}  int all = __all_sync(warpfix_mask, odd != 0);

__global__ void everyone(int *io, unsigned *out) {
  io[threadIdx.x] = warpSum(io[threadIdx.x]);
  out[threadIdx.x] = votes();
}
// CHECK-FIXES:{{^}}  io[threadIdx.x] = warpSum(io[threadIdx.x], FULL);
// CHECK-FIXES-NEXT:{{^}}  out[threadIdx.x] = votes(FULL);

__global__ void lowHalf(int *io, unsigned *out) {
  int v = io[threadIdx.x];
  if (threadIdx.x % 32 < 16) {
    v = warpSum(v);
    out[threadIdx.x] = votes( );
  }
  io[threadIdx.x] = v;
}
// CHECK-FIXES:{{^}}  const unsigned [[M:warpfix_mask_[0-9]+]] = __ballot_sync(FULL, threadIdx.x % 32 < 16);
// CHECK-FIXES-NEXT:{{^}}  if (threadIdx.x % 32 < 16) {
// CHECK-FIXES-NEXT:{{^}}    v = warpSum(v, [[M]]);
// CHECK-FIXES-NEXT:{{^}}    out[threadIdx.x] = votes([[M]]);

// An early exit: the lanes that go on make the call.
__global__ void inRange(int *io, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  io[i] = warpSum(io[i]);
}
// CHECK-FIXES:{{^}}  const unsigned [[R:warpfix_mask_[0-9]+]] = __ballot_sync(FULL, !(i >= n));
// CHECK-FIXES-NEXT:{{^}}  if (i >= n)
// CHECK-FIXES:{{^}}  io[i] = warpSum(io[i], [[R]]);
