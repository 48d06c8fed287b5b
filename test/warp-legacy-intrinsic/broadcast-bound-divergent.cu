// Near misses of the broadcast bound (broadcast-bound.cu): a shuffle that
// reads a different lane in each lane, a source lane that differs between
// lanes, a width narrower than the warp, and a broadcast that not every lane
// makes, so that its source lane may have left. Each loop stays divergent
// (issue 15, item 8b).
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache --checks=-*,warp-legacy-intrinsic %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 1 %warpfix --no-cache --checks=-*,warp-legacy-intrinsic --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=SUMMARY
// RUN: diff %s %t/k.cu
// SUMMARY: 5 findings in 1 file (0 fixable)

__global__ void down_bound(const int *count, int *io) {
  int n = __shfl_down_sync(0xffffffff, count[threadIdx.x], 1);
  int acc = io[threadIdx.x];
  for (int j = 0; j < n; ++j)
    acc += __shfl_xor(acc, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: '__shfl_xor' is a legacy
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: no automatic fix: the loop's condition is lane-dependent
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: candidate rewrite
  io[threadIdx.x] = acc;
}

__global__ void lane_source(const int *count, int *io) {
  int n = __shfl_sync(0xffffffff, count[threadIdx.x], threadIdx.x & 3);
  int acc = io[threadIdx.x];
  for (int j = 0; j < n; ++j)
    acc += __shfl_xor(acc, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: '__shfl_xor' is a legacy
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: no automatic fix: the loop's condition is lane-dependent
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: candidate rewrite
  io[threadIdx.x] = acc;
}

__global__ void narrow_width(const int *count, int *io) {
  int n = __shfl_sync(0xffffffff, count[threadIdx.x], 0, 16);
  int acc = io[threadIdx.x];
  for (int j = 0; j < n; ++j)
    acc += __shfl_xor(acc, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: '__shfl_xor' is a legacy
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: no automatic fix: the loop's condition is lane-dependent
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: candidate rewrite
  io[threadIdx.x] = acc;
}

// Lane 0 leaves before the broadcast from lane 0.
__global__ void source_left(const int *count, int *io) {
  if (threadIdx.x % 32 == 0)
    return;
  int n = __shfl_sync(__activemask(), count[threadIdx.x], 0);
  int acc = io[threadIdx.x];
  for (int j = 0; j < n; ++j)
    acc += __shfl_xor(acc, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: '__shfl_xor' is a legacy
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: no automatic fix: the loop's condition is lane-dependent
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: candidate rewrite
  io[threadIdx.x] = acc;
}

// Only the upper half-warp broadcasts, from lane 0, which is not among them.
__global__ void half_broadcast(const int *count, int *io) {
  int acc = io[threadIdx.x];
  if (threadIdx.x % 32 >= 16) {
    int n = __shfl_sync(0xffff0000, count[threadIdx.x], 0);
    for (int j = 0; j < n; ++j)
      acc += __shfl_xor(acc, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: '__shfl_xor' is a legacy
    // CHECK-MESSAGES: :[[@LINE-3]]:5: note: no automatic fix: the loop's condition is lane-dependent
    // CHECK-MESSAGES: :[[@LINE-3]]:14: note: candidate rewrite
  }
  io[threadIdx.x] = acc;
}
