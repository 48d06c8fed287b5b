// Using CUDA Warp-Level Primitives, listing 5, as the legacy code it came from: the member set is
// queried inside the branch. Before CUDA 9 there was no __activemask(); code
// asked __ballot(1) for "the lanes here now" and trusted it to be every lane
// with threadIdx.x < numElements. Each warp with participants writes its sum
// and how many lanes the ballot saw.
//
// The reduction adds a neighbour only if the ballot says it is present, so no
// undefined value from an inactive lane is used.
//
// Shapes: any block size, with n <= blockSize. 48 and 100 give partial warps.
//
// @shapes 64x40:20 48x50:40 100x30:77 128x20:128 32x64:1
// @sanitize 48x2:40
// @time 256x8192:200 grow=blocks
#include "../../harness.h"

__global__ void branchSums(const int *input, int *warpSums, int *warpCounts, int numElements) {
  const int *row = input + blockIdx.x * blockDim.x;
  int lane = threadIdx.x % 32;
  int warp = blockIdx.x * ((blockDim.x + 31) / 32) + threadIdx.x / 32;
  if (threadIdx.x < numElements) {
    unsigned mask = __ballot(1);
    int val = row[threadIdx.x];
    for (int offset = 16; offset > 0; offset /= 2) {
      int other = __shfl_down(val, offset);
      if (lane + offset < 32 && (mask >> (lane + offset) & 1))
        val += other;
    }
    if (lane == 0) {
      warpSums[warp] = val;
      warpCounts[warp] = __popc(mask);
    }
  }
}

struct Expected {
  std::vector<int> sums, counts;
};

static Expected reference(const std::vector<int> &input, const harness::Shape &s) {
  int warps = harness::warpsPerBlock(s.blockSize);
  Expected e{std::vector<int>(s.numBlocks * warps, harness::sentinel<int>()),
             std::vector<int>(s.numBlocks * warps, harness::sentinel<int>())};
  for (int b = 0; b < s.numBlocks; ++b)
    for (int w = 0; w < warps && w * 32 < s.n; ++w) {
      int end = std::min(w * 32 + 32, s.n), sum = 0;
      for (int t = w * 32; t < end; ++t)
        sum += input[b * s.blockSize + t];
      e.sums[b * warps + w] = sum;
      e.counts[b * warps + w] = end - w * 32;
    }
  return e;
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require(s.n <= s.blockSize, "numElements (n) must not exceed the block");
  harness::Rng rng(s.seed);
  std::vector<int> input = harness::randomInts(rng, s.numBlocks * s.blockSize, -1000, 1000);
  Expected want = reference(input, s);
  harness::DeviceArray<int> dInput(input), dSums(want.sums.size()), dCounts(want.counts.size());
  return harness::run(s,
                      {harness::expect("warpSums", dSums, want.sums),
                       harness::expect("warpCounts", dCounts, want.counts)},
                      [&] {
                        branchSums<<<s.numBlocks, s.blockSize>>>(dInput.get(), dSums.get(),
                                                                 dCounts.get(), s.n);
                      });
}
