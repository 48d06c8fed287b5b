// What warpfix does since the fix of these blind spots: no fix: a destructor
// and a virtual override have callers it does not follow, so the lanes that
// reach them are unknown.
//
// Red team: `unsigned m = __activemask();` kept and used as a member mask in
// code whose callers warpfix does not all see. PairSwap::~PairSwap() and
// Swapper::swap() (a virtual override) each take the active mask into a
// local and use it only as the mask of a __shfl_xor_sync with lane ^ 1.
// Their only calls warpfix can name are in `converged` (an explicit
// destructor call and a direct member call, every lane), so it writes the
// full mask where the mask is taken. In `hidden`, the destructor runs
// implicitly at the end of `if (pairFlag)` and the override is reached by a
// virtual call in the else arm: each arm's lanes would pass a mask that names
// the other arm's lanes.
//
// What the legacy code computed: the active mask is the lanes that execute
// the shuffle; the flag is the same for the two lanes of a pair (it is read
// from the pair's even element), so each lane's partner is active and each
// lane gets its partner's value. converged: out[i] = 2 * in[i ^ 1] (the
// destructor adds the partner's value, then the member call adds it again);
// hidden: out[i] = in[i ^ 1] + (flag ? 1000 : 2000). Lanes past n hold 0.
// Block sizes and n are even, so every lane has its partner.
//
// @shapes 128x40:5000 48x100:4700 100x37:3650 1024x3:3000
// @sanitize 48x2:90
// @time 256x4096:1048576
#include "../../harness.h"

#include <new>

struct PairSwap {
  int *dst;
  int v;
  __device__ ~PairSwap() {
    unsigned m = __activemask();
    *dst += __shfl_xor_sync(m, v, 1);
  }
};

struct Swapping {
  __device__ virtual int swap(int v) { return -1; }
};

struct Swapper : Swapping {
  __device__ int swap(int v) override {
    unsigned m = __activemask();
    return __shfl_xor_sync(m, v, 1);
  }
};

__global__ void converged(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int x = i < n ? in[i] : 0;
  int r = 0;
  alignas(PairSwap) unsigned char storage[sizeof(PairSwap)];
  PairSwap *p = new (storage) PairSwap{&r, x};
  p->~PairSwap();
  Swapper swapper;
  r += swapper.swap(x);
  if (i < n)
    out[i] = r;
}

__global__ void hidden(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int x = in[i];
  bool pairFlag = in[i & ~1] & 1;
  if (pairFlag) {
    out[i] = 1000;
    PairSwap swap{out + i, x};
  } else {
    Swapper swapper;
    Swapping *s = &swapper;
    out[i] = 2000 + s->swap(x);
  }
}

struct Expected {
  std::vector<int> converged, hidden;
};

static Expected reference(const std::vector<int> &in, const harness::Shape &s) {
  Expected e{std::vector<int>(s.n), std::vector<int>(s.n)};
  for (int i = 0; i < s.n; ++i) {
    e.converged[i] = 2 * in[i ^ 1];
    e.hidden[i] = in[i ^ 1] + ((in[i & ~1] & 1) ? 1000 : 2000);
  }
  return e;
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require((long long)s.blockSize * s.numBlocks >= s.n, "the grid must cover n");
  harness::require(s.blockSize % 2 == 0 && s.n % 2 == 0, "every lane needs its pair partner");
  harness::Rng rng(s.seed);
  std::vector<int> in = harness::randomInts(rng, s.n, -100000, 100000);
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
