// A warp-sum helper and a vote helper that the kernel calls with every lane
// and, under a lane-dependent branch, with the first k lanes only (issue 15,
// item 3). A legacy primitive in the helper took whoever was active; the
// rewrite passes the mask in: the full mask from the first call, a ballot of
// the branch from the second. The sum adds only the lanes that take part, so
// it is defined for any k; the vote names exactly those lanes.
//
// Shapes: blocks of whole warps; n is k, 1 to 32.
//
// @shapes 64x40:20 128x20:1 96x30:32 32x64:7
// @sanitize 64x2:13
// @time 256x8192:17 grow=blocks
#include "../../harness.h"

// Lane 0 gets the sum of lanes [0, count).
__device__ int warpSum(int v, int count) {
  int lane = threadIdx.x % 32;
  for (int offset = 16; offset > 0; offset /= 2) {
    int other = __shfl_down(v, offset);
    if (lane + offset < count)
      v += other;
  }
  return v;
}

__device__ unsigned positiveVoters(int v) { return __ballot(v > 0); }

__global__ void warpTotals(const int *in, int *whole, int *part,
                           unsigned *votes, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32;
  int v = in[i];
  int w = warpSum(v, 32);
  if (lane == 0)
    whole[i / 32] = w;
  if (lane < k) {
    int p = warpSum(v, k);
    unsigned b = positiveVoters(v);
    if (lane == 0) {
      part[i / 32] = p;
      votes[i / 32] = b;
    }
  }
}

struct Expected {
  std::vector<int> whole, part;
  std::vector<unsigned> votes;
};

static Expected reference(const std::vector<int> &in, int warps, int k) {
  Expected e{std::vector<int>(warps), std::vector<int>(warps),
             std::vector<unsigned>(warps)};
  for (int w = 0; w < warps; ++w) {
    int whole = 0, part = 0;
    unsigned votes = 0;
    for (int lane = 0; lane < 32; ++lane) {
      int v = in[w * 32 + lane];
      whole += v;
      if (lane < k) {
        part += v;
        if (v > 0)
          votes |= 1u << lane;
      }
    }
    e.whole[w] = whole;
    e.part[w] = part;
    e.votes[w] = votes;
  }
  return e;
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require(s.blockSize % 32 == 0, "blocks must be whole warps");
  harness::require(s.n >= 1 && s.n <= 32, "k (n) must be 1 to 32");
  int warps = s.numBlocks * s.blockSize / 32;
  harness::Rng rng(s.seed);
  std::vector<int> in = harness::randomInts(rng, warps * 32, -1000, 1000);
  Expected e = reference(in, warps, s.n);
  harness::DeviceArray<int> dIn(in), dWhole(warps), dPart(warps);
  harness::DeviceArray<unsigned> dVotes(warps);
  return harness::run(s,
                      {harness::expect("whole", dWhole, e.whole),
                       harness::expect("part", dPart, e.part),
                       harness::expect("votes", dVotes, e.votes)},
                      [&] {
                        warpTotals<<<s.numBlocks, s.blockSize>>>(
                            dIn.get(), dWhole.get(), dPart.get(), dVotes.get(),
                            s.n);
                      });
}
