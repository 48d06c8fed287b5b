// Red team, computed-once ballots: early exits and else arms whose
// conditions read global memory, short-circuited, in partial warps.
//
// exitsAndArms: `if (i >= n || keys[i / 2] < 0) return;` (the load is only
// safe because || stops first: computed once, the short circuit must stay),
// then `if (keys[i / 2] > 800 || lane >= 28) return;`, then votes of the
// survivors, then an if/else on `lane < 20 && keys[i / 2] % 3 == 0`. The
// survivors' mask is ~m1 & ~m2 (~m1 names the lanes a partial warp lacks,
// which count as exited), the else arm's (survivors & ~m3).
// nestedArms: a register branch `if (lane < 16)` around an if/else on a
// memory condition: the inner ballot is taken under the outer one, and the
// else arm gets (outer & ~inner).
//
// What the legacy code computed: each legacy vote and shuffle ran over the
// lanes active at the call: the lanes of the warp that exist, have not
// returned, and are in the arm. Keys belong to pairs of threads (keys[i / 2]),
// so both lanes of a pair are always in the same arm and __shfl_xor(v, 1)
// reads a lane of the same arm. exitsAndArms writes, for each surviving
// thread, the ballot of odd values among the survivors (live) and its value
// after the arm (out); threads that returned leave both alone (sentinel).
// nestedArms: lanes 0-15 add the partner's value (odd key) or the count of
// positive values among the lanes 0-15 with an even key; threads past n take
// part with v = 0, out holds the n in-range values.
//
// Shapes: even block sizes and even n (pairs never straddle the end).
//
// @shapes 128x40:5000 48x100:4700 100x37:3650 1024x3:3000
// @sanitize 100x2:190
// @time 256x4096:1048576
#include "../../harness.h"

__global__ void exitsAndArms(const int *in, const int *keys, int *out, unsigned *live, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x & 31;
  if (i >= n || keys[i / 2] < 0)
    return;
  if (keys[i / 2] > 800 || lane >= 28)
    return;
  int v = in[i];
  live[i] = __ballot(v & 1);
  if (lane < 20 && keys[i / 2] % 3 == 0) {
    v += __shfl_xor(v, 1);
    v += 1000 * __popc(__ballot(v & 2));
  } else {
    v -= __any(v > 500) ? 7 : 3;
    v += __all(v & 1) ? 100000 : 0;
  }
  out[i] = v;
}

__global__ void nestedArms(const int *in, const int *keys, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x & 31;
  int v = i < n ? in[i] : 0;
  if (lane < 16) {
    if (keys[i / 2] % 2 != 0) {
      v += __shfl_xor(v, 1);
    } else {
      v += __popc(__ballot(v > 0));
    }
  }
  if (i < n)
    out[i] = v;
}

struct Expected {
  std::vector<int> out, nested;
  std::vector<unsigned> live;
};

static Expected reference(const std::vector<int> &in, const std::vector<int> &keys,
                          const harness::Shape &s) {
  Expected e{std::vector<int>(s.n, harness::sentinel<int>()), std::vector<int>(s.n),
             std::vector<unsigned>(s.n, harness::sentinel<unsigned>())};
  auto at = [&](int i) { return i < s.n ? in[i] : 0; };
  int warps = harness::warpsPerBlock(s.blockSize);
  for (int b = 0; b < s.numBlocks; ++b)
    for (int w = 0; w < warps; ++w) {
      int lanes = harness::lanesInWarp(s.blockSize, w);
      int base = b * s.blockSize + w * 32;
      // exitsAndArms
      bool alive[32] = {}, inArm[32] = {};
      int v[32] = {};
      unsigned liveMask = 0;
      for (int l = 0; l < lanes; ++l) {
        int i = base + l;
        if (i >= s.n || keys[i / 2] < 0)
          continue;
        if (keys[i / 2] > 800 || l >= 28)
          continue;
        alive[l] = true;
        v[l] = in[i];
        if (v[l] & 1)
          liveMask |= 1u << l;
        inArm[l] = l < 20 && keys[i / 2] % 3 == 0;
      }
      int shuffled[32];
      for (int l = 0; l < 32; ++l)
        shuffled[l] = alive[l] && inArm[l] ? v[l] + v[l ^ 1] : v[l];
      unsigned bit2 = 0;
      bool anyBig = false;
      for (int l = 0; l < 32; ++l) {
        if (alive[l] && inArm[l] && (shuffled[l] & 2))
          bit2 |= 1u << l;
        if (alive[l] && !inArm[l] && v[l] > 500)
          anyBig = true;
      }
      int after[32];
      bool allOdd = true;
      for (int l = 0; l < 32; ++l) {
        if (!alive[l])
          continue;
        if (inArm[l]) {
          after[l] = shuffled[l] + 1000 * __builtin_popcount(bit2);
        } else {
          after[l] = v[l] - (anyBig ? 7 : 3);
          allOdd = allOdd && (after[l] & 1);
        }
      }
      for (int l = 0; l < 32; ++l) {
        if (!alive[l])
          continue;
        int i = base + l;
        e.live[i] = liveMask;
        e.out[i] = inArm[l] ? after[l] : after[l] + (allOdd ? 100000 : 0);
      }
      // nestedArms
      int positives = 0;
      for (int l = 0; l < lanes && l < 16; ++l) {
        int i = base + l;
        if (keys[i / 2] % 2 == 0 && at(i) > 0)
          ++positives;
      }
      for (int l = 0; l < lanes; ++l) {
        int i = base + l;
        if (i >= s.n)
          continue;
        int r = at(i);
        if (l < 16)
          r += keys[i / 2] % 2 != 0 ? at(i ^ 1) : positives;
        e.nested[i] = r;
      }
    }
  return e;
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require((long long)s.blockSize * s.numBlocks >= s.n, "the grid must cover n");
  harness::require(s.blockSize % 2 == 0 && s.n % 2 == 0, "pairs must not straddle an end");
  harness::Rng rng(s.seed);
  int threads = s.blockSize * s.numBlocks;
  std::vector<int> in = harness::randomInts(rng, s.n, -1000, 1000);
  std::vector<int> keys = harness::randomInts(rng, threads / 2, -200, 1000);
  Expected want = reference(in, keys, s);
  harness::DeviceArray<int> dIn(in), dKeys(keys), dOut(s.n), dNested(s.n);
  harness::DeviceArray<unsigned> dLive(s.n);
  return harness::run(s,
                      {harness::expect("exitsAndArms", dOut, want.out),
                       harness::expect("exitsAndArms.live", dLive, want.live),
                       harness::expect("nestedArms", dNested, want.nested)},
                      [&] {
                        exitsAndArms<<<s.numBlocks, s.blockSize>>>(dIn.get(), dKeys.get(),
                                                                   dOut.get(), dLive.get(), s.n);
                        nestedArms<<<s.numBlocks, s.blockSize>>>(dIn.get(), dKeys.get(),
                                                                 dNested.get(), s.n);
                      });
}
