#include "warp_sum.cuh"

__global__ void totals(const int *in, int *out) {
  out[threadIdx.x] = blockTotal(in[threadIdx.x]);
}
