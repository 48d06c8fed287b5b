// What warpfix does since the fix of these blind spots: no fix: a destructor
// and a virtual override have callers it does not follow, so the lanes that
// reach them are unknown.
//
// Red team: legacy inline PTX (vote.ballot.b32, shfl.bfly.b32) in a
// destructor and in a virtual override, whose callers warpfix does not all
// see. Their only calls that warpfix can name are in `converged` (every
// lane), so it gives each instruction the immediate full membermask. In
// `hidden`, BallotPtx's destructor runs implicitly at the end of
// `if (pairFlag)` and SwapPtx::swap is reached by a virtual call in the else
// arm: each arm's `.sync` instruction names the other arm's lanes.
//
// What the legacy code computed (each instruction over the active lanes):
// converged: per in-range lane, 1000 * (number of in-range lanes of its warp
// with odd x) + its pair partner's x, x being in[i] (0 past n).
// hidden: lanes whose pair flag (in[i & ~1] & 2) is set get the number of
// in-range flagged lanes of their warp with odd x; the others get their
// partner's x + 100000. The flag is the same for both lanes of a pair, and
// block sizes and n are even, so the partner of a lane is always active.
//
// @shapes 128x40:5000 48x100:4700 100x37:3650 1024x3:3000
// @sanitize 48x2:90
// @time 256x4096:1048576
#include "../../harness.h"

#include <new>

struct BallotPtx {
  int *dst;
  int v;
  __device__ ~BallotPtx() {
    unsigned bits;
    asm volatile("{ .reg .pred p; setp.ne.u32 p, %1, 0; vote.ballot.b32 %0, p; }"
                 : "=r"(bits)
                 : "r"(v & 1));
    *dst += __popc(bits);
  }
};

struct Swapping {
  __device__ virtual int swap(int v) { return -1; }
};

struct SwapPtx : Swapping {
  __device__ int swap(int v) override {
    int r;
    asm volatile("shfl.bfly.b32 %0, %1, 1, 0x1f;" : "=r"(r) : "r"(v));
    return r;
  }
};

__global__ void converged(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int x = i < n ? in[i] : 0;
  int count = 0;
  alignas(BallotPtx) unsigned char storage[sizeof(BallotPtx)];
  BallotPtx *b = new (storage) BallotPtx{&count, x};
  b->~BallotPtx();
  SwapPtx sw;
  int partner = sw.swap(x);
  if (i < n)
    out[i] = 1000 * count + partner;
}

__global__ void hidden(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int x = in[i];
  bool pairFlag = in[i & ~1] & 2;
  if (pairFlag) {
    out[i] = 0;
    BallotPtx b{out + i, x};
  } else {
    SwapPtx sw;
    Swapping *s = &sw;
    out[i] = 100000 + s->swap(x);
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
      int odd = 0, flaggedOdd = 0;
      for (int l = 0; l < lanes; ++l) {
        int i = base + l;
        if (i >= s.n)
          continue;
        odd += in[i] & 1;
        if (in[i & ~1] & 2)
          flaggedOdd += in[i] & 1;
      }
      for (int l = 0; l < lanes; ++l) {
        int i = base + l;
        if (i >= s.n)
          continue;
        e.converged[i] = 1000 * odd + in[i ^ 1];
        e.hidden[i] = (in[i & ~1] & 2) ? flaggedOdd : 100000 + in[i ^ 1];
      }
    }
  return e;
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require((long long)s.blockSize * s.numBlocks >= s.n, "the grid must cover n");
  harness::require(s.blockSize % 2 == 0 && s.n % 2 == 0, "every lane needs its pair partner");
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
