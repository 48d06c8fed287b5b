// Using CUDA Warp-Level Primitives, listing 1: the __shfl_down tree reduction, as written before
// CUDA 9, inside a warpReduceSum helper. Each warp writes the sum of its 32
// values.
//
// Shapes: block sizes are multiples of 32. In a partial warp the tree reads
// lanes that do not exist (lane 0 reads lane 16 first), whose values are
// undefined with or without a mask. Elements past n are read as 0 instead.
//
// @shapes 128x40:5000 32x100:3190 256x12:3072 1024x3:2500
// @sanitize 64x2:100
// @time 256x4096:1048576
#include "../../harness.h"

__inline__ __device__ int warpReduceSum(int val) {
  for (int offset = 16; offset > 0; offset /= 2)
    val += __shfl_down(val, offset);
  return val;
}

__global__ void warpSums(const int *in, int *sums, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int val = i < n ? in[i] : 0;
  val = warpReduceSum(val);
  if (threadIdx.x % 32 == 0)
    sums[blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32] = val;
}

static std::vector<int> reference(const std::vector<int> &in, const harness::Shape &s) {
  int warps = s.numBlocks * (s.blockSize / 32);
  std::vector<int> sums(warps, 0);
  for (int w = 0; w < warps; ++w)
    for (int i = w * 32; i < w * 32 + 32; ++i)
      sums[w] += i < s.n ? in[i] : 0;
  return sums;
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require(s.blockSize % 32 == 0, "the tree reads all 32 lanes of a warp");
  harness::Rng rng(s.seed);
  std::vector<int> in = harness::randomInts(rng, s.n, -1000, 1000);
  harness::DeviceArray<int> dIn(in), dSums(s.numBlocks * (s.blockSize / 32));
  return harness::run(s, {harness::expect("sums", dSums, reference(in, s))},
                      [&] { warpSums<<<s.numBlocks, s.blockSize>>>(dIn.get(), dSums.get(), s.n); });
}
