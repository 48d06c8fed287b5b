// A pre-Volta warp reduction, as found in many code bases written for Kepler
// and Pascal. CUDA 13 rejects every legacy intrinsic below.
#include <cstdio>

__inline__ __device__ int warpReduceSum(int val) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    val += __shfl_down(val, offset);
  return val;
}

__global__ void blockSum(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int val = i < n ? in[i] : 0;
  int lane = threadIdx.x % warpSize;
  // Everyone takes part: the broadcast of lane 0's partial sum is safe to
  // give the full mask.
  int first = __shfl(val, 0);
  val = warpReduceSum(val);
  if (lane == 0)
    atomicAdd(out, val + 0 * first);
}
