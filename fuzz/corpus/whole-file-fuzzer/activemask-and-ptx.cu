#define FULL_MASK 0xffffffff
__device__ int vote(int p) {
  unsigned m = __activemask();
  return __all_sync(m, p);
}
__device__ int lane_id() {
  int id;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(id));
  return id;
}
__device__ int shfl_asm(int v) {
  int r;
  asm volatile("shfl.down.b32 %0, %1, 1, 0x1f;" : "=r"(r) : "r"(v));
  return r;
}
__global__ void k(int *o) {
  int v = o[threadIdx.x];
  if (threadIdx.x < 16)
    v = __shfl_xor_sync(FULL_MASK, v, 1);
  o[threadIdx.x] = vote(v) + lane_id() + shfl_asm(v) + __any(v) + __all(v);
}
