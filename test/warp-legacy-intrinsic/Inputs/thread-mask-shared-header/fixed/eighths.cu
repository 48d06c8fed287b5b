#include "group_sum.cuh"

__global__ void eighths(int *io) {
  int v = io[threadIdx.x];
  const unsigned warpfix_mask_5 = __ballot_sync(0xffffffff, threadIdx.x % 32 < 8);
  if (threadIdx.x % 32 < 8)
    v = groupSum(v, warpfix_mask_5);
  io[threadIdx.x] = lowHalfSum(v);
}
