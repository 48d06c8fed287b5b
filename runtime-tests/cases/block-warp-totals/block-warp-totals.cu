// Warp totals gathered across the block, a grid-stride loop: in each round
// every warp sums its 32 elements with shuffles, its last lane publishes the
// total, and warp 0 adds up the four totals. The round ends with no barrier,
// so the next round's totals overwrite what warp 0 may still read, and the
// barrier between publishing and reading is missing too. warpfix's
// block-missing-syncthreads puts a __syncthreads() before warp 0's read and
// one at the end of the loop body; every thread runs the same rounds, since
// the loop's trip count depends on the block and the grid only.
//
// Shapes: blocks of 128 threads; n a multiple of 128; elements past n are
// not read.
//
// @shapes 128x16:8192 128x5:2560 128x1:128
// @sanitize 128x2:512
// @time 128x4096:16777216 grow=blocks
// @original racy
#include "../../harness.h"

__global__ void gridTotals(const int *in, int *out, int n) {
  __shared__ int totals[4];
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  int acc = 0;
  for (int base = blockIdx.x * 128; base < n; base += gridDim.x * 128) {
    int v = in[base + threadIdx.x];
    for (int d = 16; d > 0; d /= 2)
      v += __shfl_down_sync(0xffffffff, v, d);
    if (lane == 0)
      totals[warp] = v;
    if (warp == 0 && lane < 4)
      acc += totals[lane];
  }
  if (warp == 0 && lane < 4)
    out[blockIdx.x * 4 + lane] = acc;
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require(s.blockSize == 128, "blocks of 128 threads");
  harness::require(s.n % 128 == 0, "n is a multiple of 128");
  harness::Rng rng(s.seed);
  std::vector<int> in = harness::randomInts(rng, s.n, 0, 99);
  std::vector<int> want(s.numBlocks * 4, 0);
  for (int i = 0; i < s.n; ++i) {
    int block = (i / 128) % s.numBlocks, warp = (i % 128) / 32;
    want[block * 4 + warp] += in[i];
  }
  harness::DeviceArray<int> dIn(in), dOut(want.size());
  return harness::run(s, {harness::expect("totals", dOut, want)}, [&] {
    gridTotals<<<s.numBlocks, 128>>>(dIn.get(), dOut.get(), s.n);
  });
}
