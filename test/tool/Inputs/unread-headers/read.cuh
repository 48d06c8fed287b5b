__device__ int lane_sum(int v) {
  for (int d = 16; d > 0; d /= 2)
    v += __shfl_down(v, d);
  return v;
}
