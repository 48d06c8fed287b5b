#include "warp_sum.cuh"

__global__ void sums(int *io) { io[threadIdx.x] = warpSum(io[threadIdx.x]); }
