#include "warp_ptx.cuh"
__global__ void scan_b(int *p) {
  int v = p[threadIdx.x];
  if (blockIdx.x > 0)
    v = shfl_up_add(v, 1);
  p[threadIdx.x] = v;
}
