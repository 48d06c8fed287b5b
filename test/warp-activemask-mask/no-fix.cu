// Reported without a fix: where the lanes are unknown, where the mask is used
// under other branches than where it was taken, and comparisons of
// __activemask() with the full mask (Using CUDA Warp-Level Primitives, listing 14).
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --checks=-*,warp-activemask-mask %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 1 %warpfix --checks=-*,warp-activemask-mask --fix %t/k.cu
// RUN: diff %s %t/k.cu
#include <cassert>
#define FULL_MASK 0xffffffff

__global__ void unknown_lanes(int *s) {
  int idx = threadIdx.x;
  for (int t = 16; idx < t; t >>= 1)
    s[idx] += __shfl_down_sync(__activemask(), s[idx], t);
  // CHECK-MESSAGES: :[[@LINE-1]]:32: warning: __activemask() is the member mask of '__shfl_down_sync'
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: no automatic fix: the loop's condition is lane-dependent, so lanes leave it at different iterations
}

__global__ void used_deeper(int *p) {
  int v = p[threadIdx.x];
  if (v > 0) {
    unsigned mask = __activemask();
    if (v > 5)
      v = __shfl_sync(mask, v, 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: __activemask() is the member mask of '__shfl_sync'
    // CHECK-MESSAGES: :[[@LINE-2]]:11: note: no automatic fix: the mask is used under other branches than the ones where it is taken
  }
  p[threadIdx.x] = v;
}

// Using CUDA Warp-Level Primitives, listing 14.
__global__ void listing14(int *p) {
  assert(__activemask() == FULL_MASK); // assume this is true
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: comparing __activemask() with the full mask assumes the warp runs in lockstep, which independent thread scheduling does not guarantee, not even right after __syncwarp() (Using CUDA Warp-Level Primitives, listing 14)
  __syncwarp();
  assert(__activemask() == FULL_MASK); // this may fail
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: comparing __activemask() with the full mask
  // CHECK-MESSAGES: :[[@LINE-2]]:25: note: no automatic fix: decide which lanes must take part
  p[0] = 1;
}
