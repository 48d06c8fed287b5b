#ifndef WARP
#define WARP 32
#endif
#define SHFL(v, o) __shfl_up(v, o)
template <int N> __device__ int warp_sum(int v) {
#pragma unroll
  for (int o = 1; o < N; o *= 2) {
    int t = SHFL(v, o);
    if ((threadIdx.x & (WARP - 1)) >= o) v += t;
  }
  return v;
}
__global__ void k(int *p) { p[threadIdx.x] = warp_sum<WARP>(p[threadIdx.x]); }
