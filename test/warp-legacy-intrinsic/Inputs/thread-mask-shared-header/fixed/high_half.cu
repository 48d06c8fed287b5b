#include "group_sum.cuh"

__global__ void highHalf(int *io) {
  int v = io[threadIdx.x];
  const unsigned warpfix_mask_5 = __ballot_sync(0xffffffff, threadIdx.x % 32 >= 16);
  if (threadIdx.x % 32 >= 16) {
    v = groupSum(v, warpfix_mask_5);
  }
  io[threadIdx.x] = v;
}
