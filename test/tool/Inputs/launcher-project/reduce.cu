#include "warp_sum.cuh"

__global__ void reduce(int *out, const int *in) {
  out[threadIdx.x] = warp_sum(in[threadIdx.x]);
}
