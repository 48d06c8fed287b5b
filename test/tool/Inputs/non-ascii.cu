__global__ void sum(const int *in, int *out) {
  int v = in[threadIdx.x];
  /* été */ v += __shfl_down(v, 16);
  out[threadIdx.x] = v;
}
