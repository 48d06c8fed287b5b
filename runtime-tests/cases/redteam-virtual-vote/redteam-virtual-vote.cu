// What warpfix does since the fix of these blind spots: no fix: the lanes
// that reach a virtual override are unknown.
//
// Red team: legacy votes in virtual member functions. warpfix follows only
// calls whose callee it can name: `ballotCount.vote(x)` and `allAny.vote(x)`
// in voteDirect, where every lane calls both, so it writes the full mask in
// BallotCount::vote and AllAny::vote. In voteVirtual the same functions are
// reached through `Voting *v = (x & 1) ? ... : ...; v->vote(x)`, a virtual
// call whose static callee is Voting::vote (no intrinsic): lanes with odd x
// run BallotCount::vote, lanes with even x AllAny::vote. Each group's full-
// mask vote names the other group's lanes, which do not execute it.
//
// What the legacy code computed (votes over the lanes that execute them):
// voteDirect: per lane, 1000 * (number of in-range lanes of its warp with
// x > 20) + 10 * all(x > 3) + any(x > 97), over the in-range lanes.
// voteVirtual: an odd-x lane gets the number of in-range odd-x lanes of its
// warp with x > 20; an even-x lane gets 10 * all(x > 3) + any(x > 97) over
// the in-range even-x lanes. Lanes past n write nothing.
//
// @shapes 128x40:5000 48x100:4700 100x37:3650 1024x3:3000
// @sanitize 48x2:90
// @time 256x4096:1048576
#include "../../harness.h"

struct Voting {
  __device__ virtual int vote(int x) { return -1; }
};

struct BallotCount : Voting {
  __device__ int vote(int x) override { return __popc(__ballot(x > 20)); }
};

struct AllAny : Voting {
  __device__ int vote(int x) override { return 10 * (__all(x > 3) != 0) + (__any(x > 97) != 0); }
};

__global__ void voteDirect(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int x = i < n ? in[i] : 50; // lanes past n vote as neutral values
  BallotCount ballotCount;
  AllAny allAny;
  int r = 1000 * ballotCount.vote(i < n ? x : 0) + allAny.vote(x);
  if (i < n)
    out[i] = r;
}

__global__ void voteVirtual(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int x = in[i];
  BallotCount ballotCount;
  AllAny allAny;
  Voting *v = (x & 1) ? static_cast<Voting *>(&ballotCount) : static_cast<Voting *>(&allAny);
  out[i] = v->vote(x);
}

struct Expected {
  std::vector<int> direct, virt;
};

static Expected reference(const std::vector<int> &in, const harness::Shape &s) {
  Expected e{std::vector<int>(s.n), std::vector<int>(s.n)};
  int warps = harness::warpsPerBlock(s.blockSize);
  for (int b = 0; b < s.numBlocks; ++b)
    for (int w = 0; w < warps; ++w) {
      int base = b * s.blockSize + w * 32, lanes = harness::lanesInWarp(s.blockSize, w);
      int count = 0, oddCount = 0;
      bool all = true, any = false, evenAll = true, evenAny = false;
      for (int l = 0; l < lanes; ++l) {
        int i = base + l;
        if (i >= s.n)
          continue;
        int x = in[i];
        count += x > 20;
        all = all && x > 3;
        any = any || x > 97;
        if (x & 1) {
          oddCount += x > 20;
        } else {
          evenAll = evenAll && x > 3;
          evenAny = evenAny || x > 97;
        }
      }
      for (int l = 0; l < lanes; ++l) {
        int i = base + l;
        if (i >= s.n)
          continue;
        e.direct[i] = 1000 * count + 10 * all + any;
        e.virt[i] = (in[i] & 1) ? oddCount : 10 * evenAll + evenAny;
      }
    }
  return e;
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require((long long)s.blockSize * s.numBlocks >= s.n, "the grid must cover n");
  harness::Rng rng(s.seed);
  std::vector<int> in = harness::randomInts(rng, s.n, 0, 100);
  Expected want = reference(in, s);
  harness::DeviceArray<int> dIn(in), dDirect(s.n), dVirt(s.n);
  return harness::run(s,
                      {harness::expect("direct", dDirect, want.direct),
                       harness::expect("virtual", dVirt, want.virt)},
                      [&] {
                        voteDirect<<<s.numBlocks, s.blockSize>>>(dIn.get(), dDirect.get(), s.n);
                        voteVirtual<<<s.numBlocks, s.blockSize>>>(dIn.get(), dVirt.get(), s.n);
                      });
}
