// A tree reduction of 256 threads whose first step, above warp size, reads
// what the upper warps stored, with no barrier after the load: thread t
// adds s[t + 128], stored by a thread four warps up. Every later step has its
// barrier. warpfix's block-missing-syncthreads inserts the missing
// __syncthreads() before the loop, where every thread of the block is.
//
// Shapes: blocks of 256 threads; threads past n load 0.
//
// @shapes 256x40:10000 256x7:1700 256x1:256
// @sanitize 256x2:400
// @time 256x4096:1048576
// @original racy
#include "../../harness.h"

__global__ void blockSums(const int *in, int *out, int n) {
  __shared__ int s[256];
  int t = threadIdx.x;
  int i = blockIdx.x * 256 + t;
  s[t] = i < n ? in[i] : 0;
  for (int stride = 128; stride > 0; stride >>= 1) {
    if (t < stride)
      s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0)
    out[blockIdx.x] = s[0];
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require(s.blockSize == 256, "blocks of 256 threads");
  harness::require((long long)s.numBlocks * 256 >= s.n, "the grid must cover n");
  harness::Rng rng(s.seed);
  std::vector<int> in = harness::randomInts(rng, s.n, 0, 99);
  std::vector<int> want(s.numBlocks, 0);
  for (int i = 0; i < s.n; ++i)
    want[i / 256] += in[i];
  harness::DeviceArray<int> dIn(in), dOut(s.numBlocks);
  return harness::run(s, {harness::expect("sums", dOut, want)}, [&] {
    blockSums<<<s.numBlocks, 256>>>(dIn.get(), dOut.get(), s.n);
  });
}
