// Issue 13, pattern 1: lane dependence that travels through memory. Each
// thread owns a small local array that starts as zeros (a uniform
// initializer) and is then filled with its own inputs: in hotQuads by a
// __device__ helper that writes through a pointer, in rankHot by a range-for
// by reference. The legacy votes and the shuffle then sit under
// `if (buf[0] > threshold)`, which splits every warp by data. An analysis
// that takes the array for its initializer calls the branch uniform and
// writes a full mask; the lanes that do not enter would then take part in
// the ballots, and __popc(__ballot(1)) would count 32.
//
// What the legacy code computed, and the rewrite must keep: each ballot is
// over the hot lanes of the warp only; the shuffle reads the lowest hot lane
// (the leader, from __ballot(1)), which is hot itself, so it is defined; each
// hot lane's rank is the number of hot lanes below it.
//
// Shapes: any block size; 48 and 100 give partial warps. Threads past n hold
// zeros, which are never hot (the threshold is not negative).
//
// @shapes 128x40:5000 48x100:4700 100x37:3650 1024x3:3000
// @sanitize 48x2:90
// @time 256x4096:1048576 max-n=268435456
#include "../../harness.h"

constexpr int kThreshold = 50;

// The code base's loader: four consecutive inputs per thread, zeros past n.
__device__ void loadQuad(int *dst, const int *src, int gid, int n) {
  for (int k = 0; k < 4; ++k)
    dst[k] = gid < n ? src[4 * gid + k] : 0;
}

__global__ void hotQuads(const int *in, unsigned *rising, int *leaderValue, int n) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int buf[4] = {0, 0, 0, 0};
  loadQuad(buf, in, gid, n);
  unsigned votes = 0;
  int lead = -1;
  if (buf[0] > kThreshold) {
    votes = __ballot(buf[1] > buf[2]);
    int leader = __ffs(__ballot(1)) - 1;
    lead = __shfl(buf[3], leader);
  }
  if (gid < n) {
    rising[gid] = votes;
    leaderValue[gid] = lead;
  }
}

__global__ void rankHot(const int *in, int *rank, int n) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32;
  int vals[4] = {0, 0, 0, 0};
  int k = 4 * gid;
  if (gid < n)
    for (int &x : vals)
      x = in[k++];
  int r = -1;
  if (vals[0] > kThreshold) {
    unsigned hot = __ballot(1);
    r = __popc(hot & ((1u << lane) - 1));
    if (__any(vals[3] == 0))
      r += 1000;
  }
  if (gid < n)
    rank[gid] = r;
}

struct Expected {
  std::vector<unsigned> rising;
  std::vector<int> leaderValue, rank;
};

static Expected reference(const std::vector<int> &in, const harness::Shape &s) {
  Expected e{std::vector<unsigned>(s.n), std::vector<int>(s.n), std::vector<int>(s.n)};
  auto at = [&](int gid, int k) { return gid < s.n ? in[4 * gid + k] : 0; };
  for (int b = 0; b < s.numBlocks; ++b)
    for (int w = 0; w < harness::warpsPerBlock(s.blockSize); ++w) {
      int first = b * s.blockSize + w * 32, lanes = harness::lanesInWarp(s.blockSize, w);
      unsigned hot = 0, votes = 0;
      bool anyZero = false;
      for (int lane = 0; lane < lanes; ++lane) {
        int gid = first + lane;
        if (at(gid, 0) > kThreshold) {
          hot |= 1u << lane;
          votes |= (unsigned)(at(gid, 1) > at(gid, 2)) << lane;
          anyZero = anyZero || at(gid, 3) == 0;
        }
      }
      int lead = hot ? at(first + __builtin_ctz(hot), 3) : -1;
      for (int lane = 0; lane < lanes; ++lane) {
        int gid = first + lane;
        if (gid >= s.n)
          continue;
        bool isHot = hot >> lane & 1;
        e.rising[gid] = isHot ? votes : 0;
        e.leaderValue[gid] = isHot ? lead : -1;
        e.rank[gid] = isHot ? __builtin_popcount(hot & ((1u << lane) - 1)) + (anyZero ? 1000 : 0)
                            : -1;
      }
    }
  return e;
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require((long long)s.blockSize * s.numBlocks >= s.n, "the grid must cover n");
  harness::Rng rng(s.seed);
  // Values 0 to 99: about half the lanes are hot, and a zero now and then.
  std::vector<int> in = harness::randomInts(rng, 4 * s.n, 0, 99);
  Expected want = reference(in, s);
  harness::DeviceArray<int> dIn(in), dLeader(s.n), dRank(s.n);
  harness::DeviceArray<unsigned> dRising(s.n);
  return harness::run(s,
                      {harness::expect("rising", dRising, want.rising),
                       harness::expect("leaderValue", dLeader, want.leaderValue),
                       harness::expect("rank", dRank, want.rank)},
                      [&] {
                        hotQuads<<<s.numBlocks, s.blockSize>>>(dIn.get(), dRising.get(),
                                                               dLeader.get(), s.n);
                        rankHot<<<s.numBlocks, s.blockSize>>>(dIn.get(), dRank.get(), s.n);
                      });
}
