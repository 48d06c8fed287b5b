// What warpfix does since the fix of these blind spots: no fix: ~Tally() and
// Evens::count() have callers it does not follow, so no mask can be threaded
// through them.
//
// Red team: the threaded mask parameter, with callers warpfix does not see.
// countAbove(v, t) (a legacy __ballot) is called by different lanes at
// different places, so warpfix gives it a new `unsigned warpfix_mask`
// parameter and makes every call it sees pass its own mask. Two of its
// callers are passed the full mask because their only visible calls are
// converged (in `converged`):
//  - ~Tally(), called explicitly there; but in `hidden` a Tally lives in the
//    scope of `if (x & 1)` and its destructor runs implicitly with only the
//    odd-x lanes;
//  - Evens::count(), called directly there; but in `hidden` the even-x
//    lanes reach it through a virtual call `Counter *c = ...; c->count(x)`.
// So in `hidden`, each group's __ballot_sync(0xffffffff, ...) names the
// other group's lanes, which do not execute it.
//
// What the legacy code computed (each ballot over the lanes executing it):
// converged: per in-range lane, counting in-range lanes of its warp,
// 1000 * #(x > 10) + (x % 3 == 0 ? 100 * #(x % 3 == 0 and x > 40) : 0)
// + 10 * #(x > 70) [Evens::count] + 100000 * #(x > 30) [~Tally].
// hidden: an odd-x lane gets the number of in-range odd-x lanes of its warp
// with x > 30; an even-x lane the number of in-range even-x lanes with x > 70.
//
// @shapes 128x40:5000 48x100:4700 100x37:3650 1024x3:3000
// @sanitize 48x2:90
// @time 256x4096:1048576
#include "../../harness.h"

#include <new>

__device__ int countAbove(int v, int t) { return __popc(__ballot(v > t)); }

struct Tally {
  int *dst;
  int v;
  __device__ ~Tally() { *dst += countAbove(v, 30); }
};

struct Counter {
  __device__ virtual int count(int x) { return -1; }
};

struct Evens : Counter {
  __device__ int count(int x) override { return countAbove(x, 70); }
};

__global__ void converged(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int x = i < n ? in[i] : 0; // lanes past n vote false everywhere
  int r = 1000 * countAbove(x, 10);
  if (x % 3 == 0)
    r += 100 * countAbove(x, 40);
  Evens evens;
  r += 10 * evens.count(x);
  int discard = 0;
  alignas(Tally) unsigned char storage[sizeof(Tally)];
  Tally *t = new (storage) Tally{&discard, x};
  t->~Tally();
  r += 100000 * discard;
  if (i < n)
    out[i] = r;
}

__global__ void hidden(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int x = in[i];
  out[i] = 0;
  if (x & 1) {
    Tally odd{out + i, x};
    x += 2;
  } else {
    Evens evens;
    Counter *c = &evens;
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
      int above10 = 0, tri40 = 0, above70 = 0, above30 = 0, odd30 = 0, even70 = 0;
      for (int l = 0; l < lanes; ++l) {
        int i = base + l;
        if (i >= s.n)
          continue;
        int x = in[i];
        above10 += x > 10;
        tri40 += x % 3 == 0 && x > 40;
        above70 += x > 70;
        above30 += x > 30;
        if (x & 1)
          odd30 += x > 30;
        else
          even70 += x > 70;
      }
      for (int l = 0; l < lanes; ++l) {
        int i = base + l;
        if (i >= s.n)
          continue;
        int x = in[i];
        e.converged[i] = 1000 * above10 + (x % 3 == 0 ? 100 * tri40 : 0) + 10 * above70 +
                         100000 * above30;
        e.hidden[i] = (x & 1) ? odd30 : even70;
      }
    }
  return e;
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require((long long)s.blockSize * s.numBlocks >= s.n, "the grid must cover n");
  harness::Rng rng(s.seed);
  std::vector<int> in = harness::randomInts(rng, s.n, 1, 100);
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
