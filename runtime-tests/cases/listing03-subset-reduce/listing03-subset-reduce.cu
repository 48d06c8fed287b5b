// Using CUDA Warp-Level Primitives, listing 3, as the pre-CUDA-9 code read: only the threads with
// threadIdx.x < numElements take part in the reduction, and the legacy
// __shfl_down had no mask to say so. Each block reduces the first numElements
// (= n) entries of its row; each warp with participants writes its sum.
//
// The listing's loop reads lanes at or past numElements, which are not active,
// so their values are undefined; this version drops them (the guard), which is
// what makes the legacy code well defined for any numElements.
//
// Shapes: any block size, with n <= blockSize (the listing's NUM_ELEMENTS is
// smaller than the block). 48 and 100 give partial warps.
//
// @shapes 64x40:20 48x50:40 100x30:77 128x20:128 32x64:1
// @sanitize 100x2:77
// @time 256x8192:200 grow=blocks
#include "../../harness.h"

__global__ void rowPrefixSums(const int *input, int *warpSums, int numElements) {
  const int *row = input + blockIdx.x * blockDim.x;
  int warpsPerBlock = (blockDim.x + 31) / 32;
  if (threadIdx.x < numElements) {
    int val = row[threadIdx.x];
    for (int offset = 16; offset > 0; offset /= 2) {
      int other = __shfl_down(val, offset);
      // Lanes that feed lane 0 have lane + offset < 32, so this names a lane
      // of the same warp: add its value only if that lane is taking part.
      if (threadIdx.x + offset < numElements)
        val += other;
    }
    if (threadIdx.x % 32 == 0)
      warpSums[blockIdx.x * warpsPerBlock + threadIdx.x / 32] = val;
  }
}

static std::vector<int> reference(const std::vector<int> &input, const harness::Shape &s) {
  int warps = harness::warpsPerBlock(s.blockSize);
  std::vector<int> sums(s.numBlocks * warps, harness::sentinel<int>());
  for (int b = 0; b < s.numBlocks; ++b)
    for (int w = 0; w < warps && w * 32 < s.n; ++w) {
      int sum = 0;
      for (int t = w * 32; t < std::min(w * 32 + 32, s.n); ++t)
        sum += input[b * s.blockSize + t];
      sums[b * warps + w] = sum;
    }
  return sums;
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require(s.n <= s.blockSize, "numElements (n) must not exceed the block");
  harness::Rng rng(s.seed);
  std::vector<int> input = harness::randomInts(rng, s.numBlocks * s.blockSize, -1000, 1000);
  harness::DeviceArray<int> dInput(input), dSums(s.numBlocks * harness::warpsPerBlock(s.blockSize));
  return harness::run(s, {harness::expect("warpSums", dSums, reference(input, s))}, [&] {
    rowPrefixSums<<<s.numBlocks, s.blockSize>>>(dInput.get(), dSums.get(), s.n);
  });
}
