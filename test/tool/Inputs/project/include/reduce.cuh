// The legacy call lives in the header: the TU's own file has no token.
__device__ int warpSum(int v) {
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down(v, offset);
  return v;
}
