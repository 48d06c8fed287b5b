// What warpfix does since the fix of these blind spots: no fix: a destructor
// runs where its object's scope ends, which it does not follow, so the lanes
// that reach it are unknown.
//
// Red team: a legacy __ballot in a destructor that runs IMPLICITLY at the end
// of a lane-dependent scope. warpfix sees only the explicit call
// `p->~Voter()` in the converged kernel `tallyConverged` and so believes that
// every lane reaches the ballot: it writes the full mask. But `tallyScoped`
// creates a Voter in each arm of `if (x & 1)`, and each arm's destructor runs
// with only that arm's lanes: a full-mask __ballot_sync there names lanes
// that do not execute it (undefined; in practice the two arms' votes may
// satisfy each other and mix their predicates).
//
// What the legacy code computed: tallyConverged: per lane, the number of
// in-range lanes of its warp with x > 20. tallyScoped: for a lane with odd x,
// the number of in-range odd-x lanes of its warp with x > 20; for a lane with
// even x, the number of in-range even-x lanes of its warp with x > 50
// (the ballot ran over the lanes active in that arm). Lanes past n return.
//
// @shapes 128x40:5000 48x100:4700 100x37:3650 1024x3:3000
// @sanitize 48x2:90
// @time 256x4096:1048576
#include "../../harness.h"

#include <new>

struct Voter {
  int *dst;
  int v;
  int threshold;
  __device__ ~Voter() { *dst = __popc(__ballot(v > threshold)); }
};

__global__ void tallyConverged(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int discard;
  // Every lane of the warp makes the explicit call; lanes past n vote 0.
  alignas(Voter) unsigned char storage[sizeof(Voter)];
  Voter *p = new (storage) Voter{i < n ? out + i : &discard, i < n ? in[i] : 0, 20};
  p->~Voter();
}

__global__ void tallyScoped(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int x = in[i];
  if (x & 1) {
    Voter odd{out + i, x, 20};
    x += 1;
  } else {
    Voter even{out + i, x, 50};
    x += 2;
  }
}

struct Expected {
  std::vector<int> converged, scoped;
};

static Expected reference(const std::vector<int> &in, const harness::Shape &s) {
  Expected e{std::vector<int>(s.n), std::vector<int>(s.n)};
  int warps = harness::warpsPerBlock(s.blockSize);
  for (int b = 0; b < s.numBlocks; ++b)
    for (int w = 0; w < warps; ++w) {
      int base = b * s.blockSize + w * 32, lanes = harness::lanesInWarp(s.blockSize, w);
      int all = 0, odd = 0, even = 0;
      for (int l = 0; l < lanes; ++l) {
        int i = base + l;
        if (i >= s.n)
          continue;
        all += in[i] > 20;
        if (in[i] & 1)
          odd += in[i] > 20;
        else
          even += in[i] > 50;
      }
      for (int l = 0; l < lanes; ++l) {
        int i = base + l;
        if (i >= s.n)
          continue;
        e.converged[i] = all;
        e.scoped[i] = (in[i] & 1) ? odd : even;
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
  harness::DeviceArray<int> dIn(in), dConv(s.n), dScoped(s.n);
  return harness::run(s,
                      {harness::expect("converged", dConv, want.converged),
                       harness::expect("scoped", dScoped, want.scoped)},
                      [&] {
                        tallyConverged<<<s.numBlocks, s.blockSize>>>(dIn.get(), dConv.get(), s.n);
                        tallyScoped<<<s.numBlocks, s.blockSize>>>(dIn.get(), dScoped.get(), s.n);
                      });
}
