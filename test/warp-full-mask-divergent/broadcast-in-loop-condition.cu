// A broadcast in a loop's condition is reached by the lanes for which that
// condition, the broadcast included, held at the iteration before: judging
// whether it is warp-uniform needs its own value. warpfix recursed on it
// until the stack overflowed, and lost the unit; it now takes it as
// lane-dependent. That is right for the first loop; for the second, whose
// counter is uniform, it is a false positive that warpfix accepts rather than
// reason about its own answer.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 1 %warpfix --no-cache %t/k.cu 2>&1 | FileCheck %s --check-prefix=SUMMARY
// SUMMARY: translation units: 1 analysed clean

__global__ void lane_bound(int *out, const int *v) {
  int x = v[threadIdx.x], q = threadIdx.x & 31, c = 0;
  while (q < __shfl_sync(0xffffffff, x, 0)) {
    // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: the full mask names every lane of the warp, but only some lanes reach this '__shfl_sync'
    // CHECK-MESSAGES: :[[@LINE-2]]:3: note: no automatic fix: the loop's condition is lane-dependent
    c++;
    q += 8;
  }
  out[threadIdx.x] = c;
}

__global__ void uniform_bound(int *out, const int *v) {
  int x = v[threadIdx.x], c = 0;
  for (int k = 0; k < __shfl_sync(0xffffffff, x, 0); ++k)
    c += k;
  // CHECK-MESSAGES: :[[@LINE-2]]:35: warning: the full mask names every lane of the warp, but only some lanes reach this '__shfl_sync'
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: no automatic fix: the loop's condition is lane-dependent
  out[threadIdx.x] = c;
}
