#include "warp_sum.cuh"

__global__ void firstLanes(int *io) {
  if (threadIdx.x % 32 < 8)
    io[threadIdx.x] = warpSum(io[threadIdx.x], missing_argument);
}
