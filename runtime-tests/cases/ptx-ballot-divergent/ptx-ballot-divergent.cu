// A vote.ballot.b32 in inline PTX inside a lane-dependent branch: the lanes
// whose value is positive ballot on whether it is odd, and write the ballot;
// the others write -1. The legacy ballot ran over the lanes active there,
// which are the lanes that took the branch; the rewrite names them with a
// ballot of the branch condition taken before it (Using CUDA Warp-Level Primitives, listing 3).
// Lanes that do not exist are in neither, so any block size is defined.
// Threads past n hold 0 and do not take the branch.
//
// @shapes 128x40:5000 48x100:4700 100x37:3650 1024x3:3000
// @sanitize 100x2:190
// @time 256x4096:1048576
#include "../../harness.h"

__global__ void oddBallots(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int x = i < n ? in[i] : 0;
  int result = -1;
  if (x > 0) {
    unsigned ballot;
    asm("{ .reg .pred p; setp.ne.u32 p, %1, 0; vote.ballot.b32 %0, p; }"
        : "=r"(ballot) : "r"(x & 1));
    result = (int)ballot;
  }
  if (i < n)
    out[i] = result;
}

static std::vector<int> reference(const std::vector<int> &in, const harness::Shape &s) {
  std::vector<int> out(s.n);
  for (int i = 0; i < s.n; ++i) {
    int t = i % s.blockSize, warpStart = i - t % 32;
    int lanes = std::min(32, s.blockSize - (t - t % 32));
    unsigned ballot = 0;
    for (int l = 0; l < lanes; ++l) {
      int j = warpStart + l;
      int x = j < s.n ? in[j] : 0;
      if (x > 0 && (x & 1))
        ballot |= 1u << l;
    }
    out[i] = in[i] > 0 ? (int)ballot : -1;
  }
  return out;
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require((long long)s.blockSize * s.numBlocks >= s.n, "the grid must cover n");
  harness::Rng rng(s.seed);
  std::vector<int> in = harness::randomInts(rng, s.n, -1000, 1000);
  harness::DeviceArray<int> dIn(in), dOut(s.n);
  return harness::run(s, {harness::expect("ballots", dOut, reference(in, s))}, [&] {
    oddBallots<<<s.numBlocks, s.blockSize>>>(dIn.get(), dOut.get(), s.n);
  });
}
