// A warp-level shuffle of matrix ownership, with a macro for the full mask
// that warpfix reuses in its fixes.
#define FULL_MASK 0xffffffff

__global__ void rotate(float *data) {
  float value = data[blockIdx.x * blockDim.x + threadIdx.x];
  int lane = threadIdx.x & 31;
  float left = __shfl(value, (lane + 31) & 31);
  float right = __shfl(value, (lane + 1) & 31);
  float pair = __shfl_xor(value, 1);
  data[blockIdx.x * blockDim.x + threadIdx.x] = left + right + pair;
}
