// For --stats: findings of two checks, one fixed and three without a fix,
// two of them for the same reason about different functions, and one in a
// branch this parse's architecture skips.
__device__ int first(int v) { return __shfl_down(v, 1); }
__device__ int second(int v) { return __shfl_xor(v, 1); }

__global__ void loop(int *p) {
  for (int t = 16; threadIdx.x < t; t >>= 1)
    p[0] += __shfl(p[0], 0);
}

#if __CUDA_ARCH__ < 700
__global__ void pascal(int *p) { p[0] = __shfl(p[0], 0); }
#endif

__global__ void converged(int *p) {
  p[0] = __shfl_sync(__activemask(), p[0], 0);
}
