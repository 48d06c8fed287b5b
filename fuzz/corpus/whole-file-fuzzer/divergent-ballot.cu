__global__ void histogram_bits(const int *in, int *bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    bool odd = in[i] & 1;
    unsigned odds = __ballot(odd);
    if ((threadIdx.x & 31) == __ffs(odds) - 1)
      atomicAdd(&bins[1], __popc(odds));
    int first = __shfl(in[i], 0);
    if (!__all(odd) && __any(first > in[i]))
      atomicAdd(&bins[0], 1);
  }
}
