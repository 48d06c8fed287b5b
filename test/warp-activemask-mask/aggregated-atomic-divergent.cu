// The warp-aggregated atomic is right for whichever lanes are converged at
// `m = __activemask()` only if every lane of m reaches the shuffle with m.
// A lane-dependent branch in between, through a field that a constructor
// sets per lane or inside a helper that receives m, leaves some lanes of m
// out of the shuffle: undefined behaviour, and a finding.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache --checks=-*,warp-activemask-mask %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 1 %warpfix --no-cache --checks=-*,warp-activemask-mask --fix %t/k.cu
// RUN: diff %s %t/k.cu
struct Flag { bool skip = (threadIdx.x & 31) % 3 == 0; };

__device__ int through_field(int *ctr) {
  unsigned m = __activemask();
  int leader = __ffs(m) - 1;
  int lane = threadIdx.x & 31;
  int base = 0;
  if (lane == leader) base = atomicAdd(ctr, __popc(m));
  Flag f;
  if (f.skip) return -1;
  base = __shfl_sync(m, base, leader);
  return base + __popc(m & ((1u << lane) - 1));
}

__device__ int broadcast(unsigned m, int v, int leader) {
  if ((threadIdx.x & 31) % 3 == 0) return -1;
  return __shfl_sync(m, v, leader);
}

__device__ int through_helper(int *ctr) {
  unsigned m = __activemask();
  int leader = __ffs(m) - 1;
  int lane = threadIdx.x & 31;
  int base = 0;
  if (lane == leader) base = atomicAdd(ctr, __popc(m));
  base = broadcast(m, base, leader);
  return base;
}

__global__ void k(int *ctr, int *out) {
  if (threadIdx.x % 5 != 0) {
    out[threadIdx.x] = through_field(ctr);
    out[threadIdx.x + 1024] = through_helper(ctr);
  }
}

// CHECK-MESSAGES: :20:22: warning: __activemask() is the member mask of '__shfl_sync'
// CHECK-MESSAGES: :13:16: note: the mask is taken here
// CHECK-MESSAGES: :41:24: note: no automatic fix: 'through_field' is called here by only some lanes of the warp
// CHECK-MESSAGES: :26:22: warning: __activemask() is the member mask of '__shfl_sync'
// CHECK-MESSAGES: :30:16: note: the mask is taken here
// CHECK-MESSAGES: :42:31: note: no automatic fix: 'through_helper' is called here by only some lanes of the warp
