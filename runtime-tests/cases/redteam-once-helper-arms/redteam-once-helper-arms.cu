// Red team, computed-once ballots shared by several findings and several
// checks. helperArms: two helpers (a pair sum, a count of odd values) that
// different lanes call at different places get a `warpfix_mask` parameter;
// their calls sit in both arms of an if whose condition reads global memory,
// and in both arms of a second such if nested in the first, so one computed-
// once ballot serves calls of both arms (m and ~m), and the nested one is
// taken under m (m2, then m & ~m2). ptxAndActive: under another such
// branch, legacy PTX (`vote.ballot.b32`, which gets the mask as a new asm
// operand) and an `__activemask()` used as a shuffle's mask
// (warp-activemask-mask); the else arm has a legacy __ballot. Three checks
// make the same computed-once edits, which must be made once.
//
// What the legacy code computed: keys belong to pairs of threads (keys[i / 2]),
// so both lanes of a pair are in the same arm of every branch, and each
// shuffle (`__shfl_xor(v, 1)`) reads a lane of the same arm; each vote counts
// the lanes of its own arm in the warp. Threads past n take part with v = 0;
// outputs hold the n in-range values.
//
// Shapes: even block sizes (a lane's pair partner must exist).
//
// @shapes 128x40:5000 48x100:4700 100x37:3650 1024x3:3000
// @sanitize 48x2:90
// @time 256x4096:1048576
#include "../../harness.h"

__device__ int pairSum(int v) { return v + (__shfl_xor(v, 1) & 255); }

__device__ int countOdd(int v) { return __popc(__ballot(v & 1)); }

__global__ void helperArms(const int *in, const int *keys, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : 0;
  v = pairSum(v);
  if (keys[i / 2] % 3 == 0) {
    v = pairSum(v);
    if (keys[i / 2] % 2 == 0) {
      v += 1000 * countOdd(v);
    } else {
      v -= countOdd(v);
    }
  } else {
    v = pairSum(v + 1);
    v += 10 * countOdd(v);
  }
  if (i < n)
    out[i] = v;
}

__global__ void ptxAndActive(const int *in, const int *keys, int *out, unsigned *votes, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : 0;
  unsigned b;
  if (keys[i / 2] & 1) {
    asm volatile("{ .reg .pred p; setp.ne.s32 p, %1, 0; vote.ballot.b32 %0, p; }"
                 : "=r"(b)
                 : "r"(v & 1));
    unsigned m = __activemask();
    v += __shfl_xor_sync(m, v, 1) & 255;
  } else {
    b = __ballot(v & 2);
  }
  if (i < n) {
    out[i] = v;
    votes[i] = b;
  }
}

struct Expected {
  std::vector<int> arms, active;
  std::vector<unsigned> votes;
};

static Expected reference(const std::vector<int> &in, const std::vector<int> &keys,
                          const harness::Shape &s) {
  Expected e{std::vector<int>(s.n), std::vector<int>(s.n), std::vector<unsigned>(s.n)};
  auto at = [&](int i) { return i < s.n ? in[i] : 0; };
  int warps = harness::warpsPerBlock(s.blockSize);
  for (int bl = 0; bl < s.numBlocks; ++bl)
    for (int w = 0; w < warps; ++w) {
      int lanes = harness::lanesInWarp(s.blockSize, w);
      int base = bl * s.blockSize + w * 32;
      int key[32], v[32], next[32];
      for (int l = 0; l < lanes; ++l) {
        key[l] = keys[(base + l) / 2];
        v[l] = at(base + l);
      }
      // helperArms, arm by arm: a = outer then, b = inner then, c = inner else, d = outer else
      auto arm = [&](int l) {
        if (key[l] % 3 != 0)
          return 3;
        return key[l] % 2 == 0 ? 1 : 2;
      };
      for (int l = 0; l < lanes; ++l)
        next[l] = v[l] + (v[l ^ 1] & 255);
      for (int l = 0; l < lanes; ++l)
        v[l] = next[l];
      for (int l = 0; l < lanes; ++l)
        next[l] = arm(l) != 3 ? v[l] + (v[l ^ 1] & 255) : (v[l] + 1) + ((v[l ^ 1] + 1) & 255);
      for (int l = 0; l < lanes; ++l)
        v[l] = next[l];
      int odd[4] = {};
      for (int l = 0; l < lanes; ++l)
        if (v[l] & 1)
          ++odd[arm(l)];
      for (int l = 0; l < lanes; ++l) {
        int a = arm(l);
        int r = a == 1 ? v[l] + 1000 * odd[1] : a == 2 ? v[l] - odd[2] : v[l] + 10 * odd[3];
        if (base + l < s.n)
          e.arms[base + l] = r;
      }
      // ptxAndActive
      unsigned oddThen = 0, twoElse = 0;
      for (int l = 0; l < lanes; ++l) {
        int x = at(base + l);
        if (key[l] & 1) {
          if (x & 1)
            oddThen |= 1u << l;
        } else if (x & 2) {
          twoElse |= 1u << l;
        }
      }
      for (int l = 0; l < lanes; ++l) {
        int i = base + l;
        if (i >= s.n)
          continue;
        bool then = key[l] & 1;
        e.active[i] = then ? at(i) + (at(i ^ 1) & 255) : at(i);
        e.votes[i] = then ? oddThen : twoElse;
      }
    }
  return e;
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require((long long)s.blockSize * s.numBlocks >= s.n, "the grid must cover n");
  harness::require(s.blockSize % 2 == 0, "each lane's pair partner must exist");
  harness::Rng rng(s.seed);
  int threads = s.blockSize * s.numBlocks;
  std::vector<int> in = harness::randomInts(rng, s.n, -1000, 1000);
  std::vector<int> keys = harness::randomInts(rng, threads / 2, 0, 1000);
  Expected want = reference(in, keys, s);
  harness::DeviceArray<int> dIn(in), dKeys(keys), dArms(s.n), dActive(s.n);
  harness::DeviceArray<unsigned> dVotes(s.n);
  return harness::run(s,
                      {harness::expect("helperArms", dArms, want.arms),
                       harness::expect("ptxAndActive", dActive, want.active),
                       harness::expect("ptxAndActive.votes", dVotes, want.votes)},
                      [&] {
                        helperArms<<<s.numBlocks, s.blockSize>>>(dIn.get(), dKeys.get(),
                                                                 dArms.get(), s.n);
                        ptxAndActive<<<s.numBlocks, s.blockSize>>>(
                            dIn.get(), dKeys.get(), dActive.get(), dVotes.get(), s.n);
                      });
}
