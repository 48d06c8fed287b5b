// The warp-aggregated atomic (issue 15, item 6) is right for whichever lanes
// happen to be converged: each group of lanes elects a leader from its own
// __activemask(), adds its own size, and broadcasts from a lane of its own
// mask. Not reported, nor is its cooperative-groups twin, coalesced_threads().
// Reported: two __activemask() calls whose masks must agree, a shuffle over
// the mask that is not a broadcast from its leader, and one that not every
// lane of the mask reaches.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 1 %warpfix --no-cache --fix %t/k.cu
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --strict-whitespace --input-file=%t/k.cu
// RUN: cp %t/k.cu %t/once.cu
// RUN: %expect-exit 1 %warpfix --no-cache --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=AGAIN
// RUN: diff %t/once.cu %t/k.cu
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/k.cu %}
// AGAIN: 3 findings in 1 file (0 fixable)
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ unsigned lane_id() { return threadIdx.x & 31; }

// Not called here: whoever arrives, the groups are right.
__device__ int aggregated_increment(int *counter) {
  unsigned m = __activemask();
  int leader = __ffs(m) - 1;
  int base;
  if (lane_id() == leader)
    base = atomicAdd(counter, __popc(m));
  base = __shfl_sync(m, base, leader);
  return base + __popc(m & ((1u << lane_id()) - 1));
}

// Stream compaction in a lane-dependent branch, the leader written out.
__global__ void compact(int *counter, const int *in, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (in[i] > 0) {
    const unsigned m = __activemask();
    int base = 0;
    if (lane_id() == __ffs(m) - 1)
      base = atomicAdd(counter, __popc(m));
    base = __shfl_sync(m, base, __ffs(m) - 1, 32);
    out[base + __popc(m & ((1u << lane_id()) - 1))] = in[i];
  }
}

// Every lane present: the same.
__global__ void uniform(int *counter, int *out) {
  unsigned m = __activemask();
  int leader = __ffs(m) - 1;
  int base;
  if (lane_id() == leader)
    base = atomicAdd(counter, __popc(m));
  base = __shfl_sync(m, base, leader);
  out[blockIdx.x * blockDim.x + threadIdx.x] = base + __popc(m & ((1u << lane_id()) - 1));
}

// The cooperative-groups twin.
__global__ void compact_groups(int *counter, const int *in, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (in[i] > 0) {
    auto g = cg::coalesced_threads();
    int base;
    if (g.thread_rank() == 0)
      base = atomicAdd(counter, g.size());
    base = g.shfl(base, 0);
    out[base + g.thread_rank()] = in[i];
  }
}

// Traps. A ballot over one __activemask() and a shuffle over another: the
// two masks must agree, and nothing makes them.
__global__ void two_masks(int *io) {
  int v = io[threadIdx.x];
  if (v > 0) {
    unsigned a = __activemask();
    unsigned votes = __ballot_sync(a, v & 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:36: warning: __activemask() is the member mask of '__ballot_sync'
    // CHECK-MESSAGES: :[[@LINE-3]]:18: note: the mask is taken here
    // CHECK-MESSAGES: :[[@LINE-4]]:18: note: only some lanes reach this call; the mask is a ballot of the branch conditions
    unsigned b = __activemask();
    v = __shfl_sync(b, v, 0) + __popc(votes);
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: __activemask() is the member mask of '__shfl_sync'
    // CHECK-MESSAGES: :[[@LINE-3]]:18: note: the mask is taken here
  }
  io[threadIdx.x] = v;
}

// The leader of one mask, the shuffle over another.
__global__ void leader_of_another(int *io) {
  int v = io[threadIdx.x];
  if (v > 0) {
    unsigned a = __activemask();
    unsigned b = __activemask();
    int leader = __ffs(a) - 1;
    v = __shfl_sync(b, v, leader);
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: __activemask() is the member mask of '__shfl_sync'
    // CHECK-MESSAGES: :[[@LINE-4]]:18: note: the mask is taken here
  }
  io[threadIdx.x] = v;
}

// A reduction over m needs lanes that m may not name.
__global__ void reduce_over_mask(int *io) {
  int v = io[threadIdx.x];
  if (v > 0) {
    unsigned m = __activemask();
    for (int k = 16; k > 0; k >>= 1)
      v += __shfl_down_sync(m, v, k);
    // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: __activemask() is the member mask of '__shfl_down_sync'
    if (lane_id() == __ffs(m) - 1)
      io[blockIdx.x] = v;
  }
}

// A shuffle from a fixed lane, which may not be in m.
__global__ void from_lane_zero(int *counter, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int own = out[i];
  if (own > 0) {
    unsigned m = __activemask();
    int base = 0;
    if (lane_id() == 0)
      base = atomicAdd(counter, __popc(m));
    out[i] = __shfl_sync(m, base, 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: __activemask() is the member mask of '__shfl_sync'
  }
}

// Lanes of m that leave before the broadcast never arrive.
__global__ void early_exit(int *counter, const int *in, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned m = __activemask();
  int leader = __ffs(m) - 1;
  int base = 0;
  if (lane_id() == leader)
    base = atomicAdd(counter, __popc(m));
  if (in[i] < 0)
    return;
  out[i] = __shfl_sync(m, base, leader);
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: __activemask() is the member mask of '__shfl_sync'
  // CHECK-MESSAGES: :[[@LINE-9]]:16: note: the mask is taken here
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: no automatic fix: the mask is used under other branches than the ones where it is taken
}
// The idiom in a loop with a uniform bound: every lane of m runs each
// iteration. Not reported.
__global__ void uniform_loop(int *counter, int *out, int n) {
  unsigned m = __activemask();
  int leader = __ffs(m) - 1;
  for (int k = 0; k < n; ++k) {
    int base = 0;
    if (lane_id() == leader)
      base = atomicAdd(counter, __popc(m));
    out[k * blockDim.x + threadIdx.x] = __shfl_sync(m, base, leader);
  }
}

// A lane-dependent trip count: lanes of m leave the loop at different times.
__global__ void lane_loop(int *counter, int *out) {
  unsigned m = __activemask();
  int leader = __ffs(m) - 1;
  for (int k = 0; k < threadIdx.x % 4; ++k) {
    int base = 0;
    if (lane_id() == leader)
      base = atomicAdd(counter, __popc(m));
    out[k * blockDim.x + threadIdx.x] = __shfl_sync(m, base, leader);
    // CHECK-MESSAGES: :[[@LINE-1]]:53: warning: __activemask() is the member mask of '__shfl_sync'
  }
}

// Width 16: the leader's lane number would be taken within each half.
__global__ void half_width(int *counter, int *out) {
  unsigned m = __activemask();
  int leader = __ffs(m) - 1;
  int base = 0;
  if (lane_id() == leader)
    base = atomicAdd(counter, __popc(m));
  out[threadIdx.x] = __shfl_sync(m, base, leader, 16);
  // CHECK-MESSAGES: :[[@LINE-1]]:34: warning: __activemask() is the member mask of '__shfl_sync'
  // CHECK-MESSAGES: :[[@LINE-6]]:22: note: no automatic fix: 'm' is also used here, not as a member mask
}

// CHECK-MESSAGES: 8 findings in 1 file (5 fixable)

// The idiom stays as it was.
// CHECK-FIXES:{{^}}__device__ int aggregated_increment(int *counter) {
// CHECK-FIXES-NEXT:{{^}}  unsigned m = __activemask();
// CHECK-FIXES:{{^}}  if (in[i] > 0) {
// CHECK-FIXES-NEXT:{{^}}    const unsigned m = __activemask();
// CHECK-FIXES:{{^}}__global__ void uniform(int *counter, int *out) {
// CHECK-FIXES-NEXT:{{^}}  unsigned m = __activemask();
// CHECK-FIXES:{{^}}    auto g = cg::coalesced_threads();
// The traps: one ballot of the branch for both masks.
// CHECK-FIXES:{{^}}  const unsigned [[TWO:warpfix_mask_[0-9]+]] = __ballot_sync(0xffffffff, v > 0);
// CHECK-FIXES-NEXT:{{^}}  if (v > 0) {
// CHECK-FIXES-NEXT:{{^}}    unsigned a = [[TWO]];
// CHECK-FIXES-NEXT:{{^}}    unsigned votes = __ballot_sync(a, v & 1);
// CHECK-FIXES:{{^}}    unsigned b = [[TWO]];
// CHECK-FIXES:{{^}}  const unsigned [[OTHER:warpfix_mask_[0-9]+]] = __ballot_sync(0xffffffff, v > 0);
// CHECK-FIXES-NEXT:{{^}}  if (v > 0) {
// CHECK-FIXES-NEXT:{{^}}    unsigned a = __activemask();
// CHECK-FIXES-NEXT:{{^}}    unsigned b = [[OTHER]];
// CHECK-FIXES:{{^}}  const unsigned [[REDUCE:warpfix_mask_[0-9]+]] = __ballot_sync(0xffffffff, v > 0);
// CHECK-FIXES-NEXT:{{^}}  if (v > 0) {
// CHECK-FIXES-NEXT:{{^}}    unsigned m = [[REDUCE]];
// CHECK-FIXES:{{^}}  const unsigned [[ZERO:warpfix_mask_[0-9]+]] = __ballot_sync(0xffffffff, own > 0);
// CHECK-FIXES-NEXT:{{^}}  if (own > 0) {
// CHECK-FIXES-NEXT:{{^}}    unsigned m = [[ZERO]];
// CHECK-FIXES:{{^}}__global__ void early_exit(int *counter, const int *in, int *out) {
// CHECK-FIXES-NEXT:{{^}}  int i = blockIdx.x * blockDim.x + threadIdx.x;
// CHECK-FIXES-NEXT:{{^}}  unsigned m = __activemask();
