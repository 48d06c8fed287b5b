__global__ void compact(const int *in, int *out, int *count, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int v = in[i];
    unsigned keep = __ballot(v > 0);
    int lane = threadIdx.x % 32;
    int rank = __popc(keep & ((1u << lane) - 1));
    int base = 0;
    if (rank == 0)
      base = atomicAdd(count, __popc(keep));
    base = __shfl(base, __ffs(keep) - 1);
    if (v > 0)
      out[base + rank] = v;
  }
}
