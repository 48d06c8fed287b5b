// Legacy intrinsics behind a code base's wrapper macros, used straight-line
// in the kernel: WARP_SHFL_DOWN for a tree sum, WARP_SHFL to broadcast it,
// WARP_BALLOT for a vote compared with the code base's FULL_MASK. A rewrite
// belongs in the macro definitions, once, whatever number of uses.
//
// Shapes: block sizes are multiples of 32 (the tree reads all 32 lanes).
// Threads past n take part with 0.
//
// @shapes 128x40:5000 32x100:3190 256x12:3072 1024x3:2500
// @sanitize 64x2:100
// @time 256x4096:1048576
#include "../../harness.h"

#define FULL_MASK 0xffffffff
#define WARP_SHFL_DOWN(v, o) __shfl_down(v, o)
#define WARP_SHFL(v, l) __shfl(v, l)
#define WARP_BALLOT(p) __ballot(p)

__global__ void warpSummary(const int *in, int *totals, unsigned *negatives, int *allPositive,
                            int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int warp = i / 32;
  int v = i < n ? in[i] : 0;
  int s = v;
  s += WARP_SHFL_DOWN(s, 16);
  s += WARP_SHFL_DOWN(s, 8);
  s += WARP_SHFL_DOWN(s, 4);
  s += WARP_SHFL_DOWN(s, 2);
  s += WARP_SHFL_DOWN(s, 1);
  s = WARP_SHFL(s, 0);
  unsigned negative = WARP_BALLOT(v < 0);
  int positive = WARP_BALLOT(v > 0) == FULL_MASK;
  if (i < n)
    totals[i] = s;
  if (i % 32 == 0) {
    negatives[warp] = negative;
    allPositive[warp] = positive;
  }
}

struct Expected {
  std::vector<int> totals;
  std::vector<unsigned> negatives;
  std::vector<int> allPositive;
};

static Expected reference(const std::vector<int> &in, const harness::Shape &s) {
  int warps = s.numBlocks * (s.blockSize / 32);
  Expected e{std::vector<int>(s.n), std::vector<unsigned>(warps), std::vector<int>(warps)};
  for (int w = 0; w < warps; ++w) {
    int sum = 0;
    unsigned negative = 0, positive = 0;
    for (int lane = 0; lane < 32; ++lane) {
      int i = w * 32 + lane, v = i < s.n ? in[i] : 0;
      sum += v;
      negative |= (unsigned)(v < 0) << lane;
      positive |= (unsigned)(v > 0) << lane;
    }
    for (int i = w * 32; i < std::min(w * 32 + 32, s.n); ++i)
      e.totals[i] = sum;
    e.negatives[w] = negative;
    e.allPositive[w] = positive == 0xffffffffu;
  }
  return e;
}

// Mostly positive values, so that some warps are positive throughout.
static std::vector<int> makeInput(harness::Rng &rng, int n) {
  std::vector<int> in(n);
  for (int &x : in)
    x = rng.range(0, 99) < 98 ? (int)rng.range(1, 1000) : (int)rng.range(-1000, 0);
  return in;
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require(s.blockSize % 32 == 0, "the tree reads all 32 lanes");
  harness::require((long long)s.blockSize * s.numBlocks >= s.n, "the grid must cover n");
  harness::Rng rng(s.seed);
  std::vector<int> in = makeInput(rng, s.n);
  Expected want = reference(in, s);
  harness::DeviceArray<int> dIn(in), dTotals(s.n), dAllPositive(want.allPositive.size());
  harness::DeviceArray<unsigned> dNegatives(want.negatives.size());
  return harness::run(s,
                      {harness::expect("totals", dTotals, want.totals),
                       harness::expect("negatives", dNegatives, want.negatives),
                       harness::expect("allPositive", dAllPositive, want.allPositive)},
                      [&] {
                        warpSummary<<<s.numBlocks, s.blockSize>>>(dIn.get(), dTotals.get(),
                                                                  dNegatives.get(),
                                                                  dAllPositive.get(), s.n);
                      });
}
