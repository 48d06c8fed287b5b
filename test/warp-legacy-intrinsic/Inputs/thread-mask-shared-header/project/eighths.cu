#include "group_sum.cuh"

__global__ void eighths(int *io) {
  int v = io[threadIdx.x];
  if (threadIdx.x % 32 < 8)
    v = groupSum(v);
  io[threadIdx.x] = lowHalfSum(v);
}
