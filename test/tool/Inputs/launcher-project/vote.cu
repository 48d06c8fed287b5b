#include "warp_sum.cuh"

__global__ void vote(int *out, const int *in) {
  out[threadIdx.x] = __any(in[threadIdx.x]) + warp_sum(1);
}
