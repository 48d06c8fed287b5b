// A switch's statements run in the lanes whose condition has the value of a
// case label that reaches them (through fall-through, and past no break), or
// of no label for the default's. Tables filled case by case are no race.
// RUN: %expect-exit 1 %warpfix --no-cache --checks=-*,warp-missing-syncwarp %s 2>&1 | FileCheck %s --implicit-check-not=warning:
#define AS_UINT2(p) (*((uint2 *)(p)))
__global__ void tables(int *out) {
  __shared__ unsigned table[64];
  switch (threadIdx.x) {
  case 0:
    AS_UINT2(&table[0]) = make_uint2(1, 2);
    AS_UINT2(&table[2]) = make_uint2(3, 4);
    break;
  case 1:
    AS_UINT2(&table[4]) = make_uint2(5, 6);
    break;
  }
  __syncthreads();
  out[threadIdx.x] = table[threadIdx.x];
}
__global__ void fallThrough(int *out) {
  __shared__ unsigned table[64];
  switch (threadIdx.x) {
  case 0:
    // CHECK: :[[@LINE+1]]:5: warning: lanes of one warp race on shared memory: lane 0 writes table[1] and lane 1 reads it
    table[1] = 7;
  case 1:
    // CHECK: :[[@LINE+1]]:5: warning: lanes of one warp race on shared memory: lane 0 writes table[1] and lane 1 writes it
    table[1] = threadIdx.x;
    break;
  default:
    // CHECK: :[[@LINE+1]]:5: warning: lanes of one warp race on shared memory: lane 2 writes table[2] and lane 3 writes it
    table[2] = threadIdx.x;
  }
  out[threadIdx.x] = table[1];
}
// CHECK: 3 findings in 1 file (0 fixable)
