#include "warp_ptx.cuh"
__global__ void divergent(int *p) {
  int v = p[threadIdx.x];
  if (v > 0)
    v = shfl_up_add(v, 1);
  p[threadIdx.x] = v;
}
