// Nothing here may be reported: the opportunistic pattern (Using CUDA Warp-Level Primitives,
// atomicAggInc), the warp-aggregated atomic over one __activemask() (issue
// 15, item 6; more in aggregated-atomic.cu), __activemask() for counting or
// debugging, and masks from a ballot. A mask captured at entry and passed on
// is reported now (stored-activemask-no-fix.cu): nothing guarantees that the
// warp is converged there either.
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

__global__ void kernel(int *counter, int *p) {
  unsigned entry = __activemask();
  int leader = __ffs(entry) - 1;
  int v = p[threadIdx.x];
  if (lane_id() == leader)
    v = atomicAdd(counter, __popc(entry));
  v = __shfl_sync(entry, v, leader) + __popc(entry & ((1 << lane_id()) - 1));
  unsigned lanes = __ballot_sync(0xffffffff, v & 1);
  if (v & 1) {
    printf("active lanes: %d\n", __popc(__activemask()));
    atomicAggInc(counter);
    v += __shfl_xor_sync(lanes, v, 1);
  }
  p[threadIdx.x] = v;
}
