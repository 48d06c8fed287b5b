// A helper in a header: other translation units may call it, and their calls
// cannot be given a mask from here.
__device__ int headerSum(int v) {
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down(v, offset);
  return v;
}

__global__ void headerCaller(int *io) {
  io[threadIdx.x] = headerSum(io[threadIdx.x]);
  if (threadIdx.x < 8)
    io[threadIdx.x] = headerSum(io[threadIdx.x]);
}
