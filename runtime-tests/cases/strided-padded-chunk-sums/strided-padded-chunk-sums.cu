// Issue 15, item 8a: a grid-stride loop over the input padded to a multiple
// of 32, `for (i = gid; i < padded; i += blockDim.x * gridDim.x)`, with a
// legacy __shfl_down tree in it that sums each 32-element chunk; lanes past
// n add 0. In blocks of whole warps the lanes of a warp hold one aligned
// chunk on every iteration, so they run the same iterations and the full
// mask is right: warpfix rewrites the shuffles with it, relying on the launch
// below (blocks of 128 threads).
//
// What the legacy code computed: every lane of a warp is active at each
// shuffle, so each chunk's sum lands in its lane 0, which stores it.
//
// Shapes: blocks of 128 (the launch says 128); n not a multiple of 32 pads
// the last chunk, and a grid smaller than the input makes warps iterate.
//
// @shapes 128x40:5000 128x3:4701 128x1:33 128x100:100000
// @sanitize 128x2:1000
// @time 128x4096:1048576
#include "../../harness.h"

#define BLOCK 128

__global__ void chunkSums(const int *in, int *sums, int n) {
  int padded = (n + 31) / 32 * 32;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < padded;
       i += blockDim.x * gridDim.x) {
    int v = i < n ? in[i] : 0;
    v += __shfl_down(v, 16);
    v += __shfl_down(v, 8);
    v += __shfl_down(v, 4);
    v += __shfl_down(v, 2);
    v += __shfl_down(v, 1);
    if (threadIdx.x % 32 == 0)
      sums[i / 32] = v;
  }
}

static std::vector<int> reference(const std::vector<int> &in, int n) {
  std::vector<int> sums((n + 31) / 32, 0);
  for (int i = 0; i < n; ++i)
    sums[i / 32] += in[i];
  return sums;
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require(s.blockSize == BLOCK, "chunkSums is launched with blocks of 128 threads");
  harness::Rng rng(s.seed);
  std::vector<int> in = harness::randomInts(rng, s.n, -1000, 1000);
  harness::DeviceArray<int> dIn(in), dSums((s.n + 31) / 32);
  return harness::run(s, {harness::expect("sums", dSums, reference(in, s.n))}, [&] {
    chunkSums<<<s.numBlocks, BLOCK>>>(dIn.get(), dSums.get(), s.n);
  });
}
