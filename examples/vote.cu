// Warp votes written for Pascal: counting, compaction and early exit.
__global__ void countPositive(const float *x, unsigned *counts, int *flags) {
  float v = x[blockIdx.x * blockDim.x + threadIdx.x];
  unsigned positive = __ballot(v > 0.0f);
  int anyNegative = __any(v < 0.0f);
  int allFinite = __all(v == v);
  if (threadIdx.x % 32 == 0) {
    counts[blockIdx.x * blockDim.x / 32 + threadIdx.x / 32] = __popc(positive);
    flags[blockIdx.x] = anyNegative | (allFinite << 1);
  }
}

__global__ void compact(const int *in, int *out, int *count) {
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  if (v == 0)
    return;
  // Only the lanes with a non-zero value are still here: the member mask
  // must name them, and a full mask would be wrong.
  unsigned keep = __ballot(1);
  int lane = threadIdx.x % 32;
  int rank = __popc(keep & ((1u << lane) - 1));
  int base = 0;
  if (rank == 0)
    base = atomicAdd(count, __popc(keep));
  base = __shfl(base, __ffs(keep) - 1);
  out[base + rank] = v;
}
