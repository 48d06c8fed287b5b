#include "warp_ptx.cuh"
__global__ void scan_a(int *p) {
  int v = p[threadIdx.x];
  for (int o = 1; o < 32; o *= 2)
    v = shfl_up_add(v, o);
  p[threadIdx.x] = v;
}
