// For --stats: findings of three checks, two fixed and five without a fix,
// two of them for the same reason about different functions, and two in a
// branch this parse's architecture skips.
__device__ int first(int v) { return __shfl_down(v, 1); }
__device__ int second(int v) { return __shfl_xor(v, 1); }

__global__ void loop(int *p) {
  for (int t = 16; threadIdx.x < t; t >>= 1)
    p[0] += __shfl(p[0], 0);
}

#if __CUDA_ARCH__ < 700
__global__ void pascal(int *p) { p[0] = __shfl(p[0], 0); }
__global__ void pascal_ptx(int *p) { asm("shfl.idx.b32 %0, %0, 0, 0x1f;" : "+r"(p[0])); }
#endif

__global__ void ptx(int *p) {
  int v = p[0];
  asm("{ .reg .pred q; setp.ne.s32 q, %0, 0; @q shfl.up.b32 %0, %0, 1, 0; }" : "+r"(v));
  asm("shfl.idx.b32 %0, %0, 0, 0x1f;" : "+r"(v));
  p[0] = v;
}

__global__ void converged(int *p) {
  p[0] = __shfl_sync(__activemask(), p[0], 0);
}
