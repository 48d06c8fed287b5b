__global__ void anyNegative(const int *in, int *out) {
  int v = in[threadIdx.x];
  out[threadIdx.x] = __any(v < 0);
}
