// What warpfix does since the fix of these blind spots: no fix: a destructor
// and a virtual override have callers it does not follow, so the lanes that
// reach them are unknown.
//
// Red team: `__activemask() & 0xffff` as a member mask, in code whose
// callers warpfix does not all see. LowTally::~LowTally() and
// LowCounter::count() (a virtual override) each run, for lanes 0 to 15,
// __ballot_sync(__activemask() & 0xffff, v > t). Their only calls that
// warpfix can name are in `converged` (every lane), where lanes 0 to 15 all
// arrive, so it rewrites the mask to the constant 0xffff. In `hidden`, the
// destructor runs implicitly at the end of `if (x & 1)` and the override is
// reached by a virtual call in the else arm: the constant names the other
// arm's lanes, which do not execute the vote.
//
// What the legacy code computed (the vote over the active lanes 0..15):
// converged: lanes 0..15 of a warp get the number of in-range lanes 0..15 of
// their warp with x > 40 [destructor] plus 100 * the number with x > 60
// [override]; lanes 16..31 get 0. hidden: an odd-x lane below 16 gets the
// number of in-range odd-x lanes below 16 with x > 40, an even-x lane below
// 16 the number of in-range even-x lanes below 16 with x > 60, times 100;
// lanes 16..31 get 0 (odd) or -1 (even). Lanes past n hold nothing.
//
// @shapes 128x40:5000 48x100:4700 100x37:3650 1024x3:3000
// @sanitize 48x2:90
// @time 256x4096:1048576
#include "../../harness.h"

#include <new>


struct LowTally {
  int *dst;
  int v;
  __device__ ~LowTally() {
    if ((threadIdx.x & 31) < 16)
      *dst += __popc(__ballot_sync(__activemask() & 0xffff, v > 40));
  }
};

struct Counting {
  __device__ virtual int count(int v) { return -7; }
};

struct LowCounter : Counting {
  __device__ int count(int v) override {
    int r = -1;
    if ((threadIdx.x & 31) < 16)
      r = 100 * __popc(__ballot_sync(__activemask() & 0xffff, v > 60));
    return r;
  }
};

__global__ void converged(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int x = i < n ? in[i] : 0; // lanes past n vote false
  int r = 0;
  alignas(LowTally) unsigned char storage[sizeof(LowTally)];
  LowTally *t = new (storage) LowTally{&r, x};
  t->~LowTally();
  LowCounter counter;
  int c = counter.count(x);
  r += c < 0 ? 0 : c;
  if (i < n)
    out[i] = r;
}

__global__ void hidden(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int x = in[i];
  if (x & 1) {
    out[i] = 0;
    LowTally tally{out + i, x};
  } else {
    LowCounter counter;
    Counting *c = &counter;
    out[i] = c->count(x);
  }
}

struct Expected {
  std::vector<int> converged, hidden;
};

static Expected reference(const std::vector<int> &in, const harness::Shape &s) {
  Expected e{std::vector<int>(s.n), std::vector<int>(s.n)};
  int warps = harness::warpsPerBlock(s.blockSize);
  for (int b = 0; b < s.numBlocks; ++b)
    for (int w = 0; w < warps; ++w) {
      int base = b * s.blockSize + w * 32, lanes = harness::lanesInWarp(s.blockSize, w);
      int a40 = 0, a60 = 0, odd40 = 0, even60 = 0;
      for (int l = 0; l < lanes && l < 16; ++l) {
        int i = base + l;
        if (i >= s.n)
          continue;
        int x = in[i];
        a40 += x > 40;
        a60 += x > 60;
        if (x & 1)
          odd40 += x > 40;
        else
          even60 += x > 60;
      }
      for (int l = 0; l < lanes; ++l) {
        int i = base + l;
        if (i >= s.n)
          continue;
        int x = in[i];
        e.converged[i] = l < 16 ? a40 + 100 * a60 : 0;
        if (x & 1)
          e.hidden[i] = l < 16 ? odd40 : 0;
        else
          e.hidden[i] = l < 16 ? 100 * even60 : -1;
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
  harness::DeviceArray<int> dIn(in), dConv(s.n), dHidden(s.n);
  return harness::run(s,
                      {harness::expect("converged", dConv, want.converged),
                       harness::expect("hidden", dHidden, want.hidden)},
                      [&] {
                        converged<<<s.numBlocks, s.blockSize>>>(dIn.get(), dConv.get(), s.n);
                        hidden<<<s.numBlocks, s.blockSize>>>(dIn.get(), dHidden.get(), s.n);
                      });
}
