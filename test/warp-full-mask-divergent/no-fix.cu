// Partial membership that cannot be turned into a ballot, and a full mask that
// comes through a variable: reported, not fixed.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --checks=-*,warp-full-mask-divergent %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 1 %warpfix --checks=-*,warp-full-mask-divergent --fix %t/k.cu
// RUN: diff %s %t/k.cu

// "Tutorial de CUDA - Warp": lanes leave this loop at different iterations.
__global__ void divergent_loop(int *s) {
  int idx = threadIdx.x;
  for (int t = 16; idx < t; t >>= 1)
    s[idx] += __shfl_down_sync(0xffffffff, s[idx], t);
  // CHECK-MESSAGES: :[[@LINE-1]]:32: warning: the full mask names every lane
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: no automatic fix: the loop's condition is lane-dependent, so lanes leave it at different iterations
}

__global__ void through_variable(int *p) {
  unsigned everyone = 0xffffffff;
  if (threadIdx.x & 1)
    p[threadIdx.x] = __shfl_sync(everyone, p[threadIdx.x], 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:34: warning: the full mask names every lane
  // CHECK-MESSAGES: :[[@LINE-2]]:34: note: no automatic fix: the full mask comes through a variable that other code may use; pass a ballot of the branch condition, taken before the branch
  p[0] = __popc(everyone);
}

