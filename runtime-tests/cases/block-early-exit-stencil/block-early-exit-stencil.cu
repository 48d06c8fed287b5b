// A two-phase stencil whose threads past n return before the block's
// barriers: each thread stores its value, adds its left and right
// neighbours' after the first barrier, and after the second adds its left
// neighbour's sum to its own value. warpfix's block-divergent-syncthreads
// moves the return past the last barrier: the threads past n skip the
// loads and sums, take part in both barriers, and return after them. The
// value loaded before the first barrier and used after the last is split
// into a declaration and an assignment; the neighbour's index is kept where
// every thread computes it.
//
// Shapes: blocks of 128 threads; n not a multiple of 128 leaves threads of
// the last block, and lanes of one warp, past the end.
//
// @shapes 128x40:5000 128x7:830 128x1:77 128x1:128
// @sanitize 128x2:200
// @time 128x8192:1048500
#include "../../harness.h"

__global__ void smooth(const int *in, int *out, int n) {
  __shared__ int tile[128];
  __shared__ int sums[128];
  int t = threadIdx.x;
  int i = blockIdx.x * 128 + t;
  if (i >= n)
    return;
  int v = in[i];
  tile[t] = v;
  __syncthreads();
  int left = t > 0 ? t - 1 : t;
  int right = t + 1 < 128 && i + 1 < n ? t + 1 : t;
  sums[t] = tile[left] + tile[right];
  __syncthreads();
  out[i] = v + sums[left];
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require(s.blockSize == 128, "blocks of 128 threads");
  harness::require((long long)s.numBlocks * 128 >= s.n, "the grid must cover n");
  harness::Rng rng(s.seed);
  std::vector<int> in = harness::randomInts(rng, s.n, -999, 999);
  auto sumAt = [&](int i) {
    int t = i % 128;
    int left = t > 0 ? i - 1 : i;
    int right = t + 1 < 128 && i + 1 < s.n ? i + 1 : i;
    return in[left] + in[right];
  };
  std::vector<int> want(s.n);
  for (int i = 0; i < s.n; ++i)
    want[i] = in[i] + sumAt(i % 128 > 0 ? i - 1 : i);
  harness::DeviceArray<int> dIn(in), dOut(s.n);
  return harness::run(s, {harness::expect("out", dOut, want)}, [&] {
    smooth<<<s.numBlocks, 128>>>(dIn.get(), dOut.get(), s.n);
  });
}
