// A block split by warp: the first warp loads a 32-entry table into shared
// memory, the other warps store their inputs, and each side ends its arm
// with its own __syncthreads(). Two barrier instructions that only some
// threads reach are outside what the CUDA C++ Programming Guide allows.
// warpfix's block-divergent-syncthreads makes them one barrier after the
// if, where every thread of the block arrives; then every thread adds a
// table entry to a value another warp stored.
//
// Shapes: blocks of 128 threads; n a multiple of 96 values per block.
//
// @shapes 128x40:3840 128x7:672 128x1:96
// @sanitize 128x2:192
// @time 128x8192:786432
#include "../../harness.h"

__global__ void lookupAdd(const int *table, const int *in, int *out, int n) {
  __shared__ int lut[32];
  __shared__ int vals[96];
  int t = threadIdx.x;
  int base = blockIdx.x * 96;
  if (t < 32) {
    lut[t] = table[(t * 7 + blockIdx.x) % 32];
    __syncthreads();
  } else {
    vals[t - 32] = in[base + t - 32];
    __syncthreads();
  }
  if (t >= 32)
    out[base + t - 32] = vals[(t - 32 + 48) % 96] + lut[(t * 5) % 32];
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require(s.blockSize == 128, "blocks of 128 threads");
  harness::require(s.n == s.numBlocks * 96, "96 values per block");
  harness::Rng rng(s.seed);
  std::vector<int> table = harness::randomInts(rng, 32, -500, 500);
  std::vector<int> in = harness::randomInts(rng, s.n, -999, 999);
  std::vector<int> want(s.n);
  for (int b = 0; b < s.numBlocks; ++b)
    for (int t = 32; t < 128; ++t) {
      int lutAt = (t * 5) % 32;
      int lutValue = table[(lutAt * 7 + b) % 32];
      want[b * 96 + t - 32] = in[b * 96 + (t - 32 + 48) % 96] + lutValue;
    }
  harness::DeviceArray<int> dTable(table), dIn(in), dOut(s.n);
  return harness::run(s, {harness::expect("out", dOut, want)}, [&] {
    lookupAdd<<<s.numBlocks, 128>>>(dTable.get(), dIn.get(), dOut.get(), s.n);
  });
}
