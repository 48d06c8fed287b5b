// Fixable by a mask parameter, unless compiled as relocatable device code.
__device__ int warpSum(int v) {
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down(v, offset);
  return v;
}

__global__ void k(int *io) {
  io[threadIdx.x] = warpSum(io[threadIdx.x]);
  if (threadIdx.x < 16)
    io[threadIdx.x] = warpSum(io[threadIdx.x]);
}
