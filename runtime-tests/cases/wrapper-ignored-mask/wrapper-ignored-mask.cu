// Issue 13, pattern 3: a code base's wrapper macros that took a mask argument
// before CUDA 9 had masks, and ignored it. Callers wrote FULL_MASK because it
// did not matter. Here pairs of lanes hold the two halves of a value, and
// pairs whose flag is set swap halves with SHFL_XOR(v, 1, FULL_MASK) under
// that data-dependent flag; then the whole warp sums with
// SHFL_DOWN(s, d, FULL_MASK). Rewriting the macro bodies to pass `mask` on
// would trust the FULL_MASK of the swap, which only the flagged pairs reach.
// SHFL_DOWN's callers are converged, so passing its mask on is right.
//
// What the legacy code computed: the swap is over the flagged pairs only, and
// lane ^ 1 of a flagged lane is flagged too (the flag belongs to the pair),
// so it is defined; the sum is over the whole warp.
//
// Shapes: block sizes are multiples of 32 (the sum reads all 32 lanes).
// Threads past n take part with 0 and a flag of their pair like the others.
//
// @shapes 128x40:5000 32x100:3190 256x12:3072 1024x3:2500
// @sanitize 64x2:100
// @time 256x4096:1048576
#include "../../harness.h"

#define FULL_MASK 0xffffffff
#define SHFL_XOR(v, m, mask) __shfl_xor(v, m)
#define SHFL_DOWN(v, d, mask) __shfl_down(v, d)

__global__ void swapPairsAndSum(const int *in, const int *pairFlags, int *out, int *warpSums,
                                int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32;
  int v = i < n ? in[i] : 0;
  if (pairFlags[i / 2]) {
    int other = SHFL_XOR(v, 1, FULL_MASK);
    v = lane & 1 ? other - v : other + v;
  }
  int s = v;
  for (int d = 16; d > 0; d /= 2)
    s += SHFL_DOWN(s, d, FULL_MASK);
  if (i < n)
    out[i] = v;
  if (lane == 0)
    warpSums[i / 32] = s;
}

struct Expected {
  std::vector<int> out, warpSums;
};

static Expected reference(const std::vector<int> &in, const std::vector<int> &pairFlags,
                          const harness::Shape &s) {
  int threads = s.blockSize * s.numBlocks;
  Expected e{std::vector<int>(s.n), std::vector<int>(threads / 32, 0)};
  auto at = [&](int i) { return i < s.n ? in[i] : 0; };
  for (int i = 0; i < threads; ++i) {
    int v = at(i);
    if (pairFlags[i / 2])
      v = i & 1 ? at(i ^ 1) - v : at(i ^ 1) + v;
    if (i < s.n)
      e.out[i] = v;
    e.warpSums[i / 32] += v;
  }
  return e;
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require(s.blockSize % 32 == 0, "the sum reads all 32 lanes");
  harness::require((long long)s.blockSize * s.numBlocks >= s.n, "the grid must cover n");
  harness::Rng rng(s.seed);
  int threads = s.blockSize * s.numBlocks;
  std::vector<int> in = harness::randomInts(rng, s.n, -1000, 1000);
  std::vector<int> pairFlags = harness::randomInts(rng, threads / 2, 0, 1);
  Expected want = reference(in, pairFlags, s);
  harness::DeviceArray<int> dIn(in), dFlags(pairFlags), dOut(s.n), dSums(threads / 32);
  return harness::run(s,
                      {harness::expect("out", dOut, want.out),
                       harness::expect("warpSums", dSums, want.warpSums)},
                      [&] {
                        swapPairsAndSum<<<s.numBlocks, s.blockSize>>>(
                            dIn.get(), dFlags.get(), dOut.get(), dSums.get(), s.n);
                      });
}
