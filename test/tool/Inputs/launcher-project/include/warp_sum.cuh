__device__ inline int warp_sum(int v) {
  for (int offset = WARP_WIDTH / 2; offset > 0; offset /= 2)
    v += __shfl_down(v, offset);
  return v;
}
