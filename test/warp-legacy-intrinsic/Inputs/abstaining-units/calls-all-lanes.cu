#include "warp_sum.cuh"

__global__ void sums(const int *in, int *out) {
  int s = warpSum(in[threadIdx.x]);
  int m = warpMax(in[threadIdx.x]);
  int p = lanePrefix(in[threadIdx.x]);
  if (threadIdx.x % 32 == 0)
    out[threadIdx.x / 32] = s + m + p;
}
