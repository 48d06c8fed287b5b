#include "group_sum.cuh"

__global__ void highHalf(int *io) {
  int v = io[threadIdx.x];
  if (threadIdx.x % 32 >= 16) {
    v = groupSum(v);
  }
  io[threadIdx.x] = v;
}
