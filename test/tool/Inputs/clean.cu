__global__ void sum(const int *in, int *out) {
  int v = in[threadIdx.x];
  v += __shfl_down_sync(0xffffffff, v, 16);
  out[threadIdx.x] = v;
}
