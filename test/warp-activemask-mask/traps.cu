// Nothing here may be reported: the opportunistic pattern (seed 000,
// atomicAggInc), a mask captured once at entry in converged code and passed
// on, __activemask() for counting or debugging, and masks from a ballot.
// RUN: %expect-exit 0 %warpfix %s 2>&1 | FileCheck %s --implicit-check-not=warning:
// CHECK: 0 findings in 0 files (0 fixable)
#include <cstdio>

__device__ int lane_id() { return threadIdx.x & 31; }

__device__ int atomicAggInc(int *ptr) {
  int mask = __match_any_sync(__activemask(), (unsigned long long)ptr);
  int leader = __ffs(mask) - 1;
  int res;
  if (lane_id() == leader)
    res = atomicAdd(ptr, __popc(mask));
  res = __shfl_sync(mask, res, leader);
  return res + __popc(mask & ((1 << lane_id()) - 1));
}

__device__ int reduce(unsigned mask, int v) {
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down_sync(mask, v, offset);
  return v;
}

__global__ void kernel(int *counter, int *p) {
  unsigned entry = __activemask();
  int v = reduce(entry, p[threadIdx.x]);
  v += __shfl_xor_sync(entry, v, 1);
  unsigned lanes = __ballot_sync(0xffffffff, v & 1);
  if (v & 1) {
    printf("active lanes: %d\n", __popc(__activemask()));
    atomicAggInc(counter);
    v += __shfl_xor_sync(lanes, v, 1);
  }
  p[threadIdx.x] = v;
}
