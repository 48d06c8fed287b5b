// Red team, computed-once ballots in loops.
//
// loopCarried: each iteration branches on `cur[t] + cur[t ^ 1] > it + 1`,
// shared memory that the iteration then rewrites (`cur[t] = v & 3`), so the
// next iteration's condition reads what this one stored, from both lanes of
// a pair. warpfix computes the condition once, and warp-missing-syncwarp puts
// a __syncwarp() between this iteration's reads and its store, and another
// between the store and the next iteration's reads.
// loopContinue: the then-arm shuffles and `continue`s; the code after the if
// is reached by the lanes of the outer mask where the condition failed (~m).
// loopBreak: a `break` under a memory condition; calls in the loop are
// refused (lanes leave at different iterations: they stay legacy, emulated),
// the vote after the loop is every lane's.
//
// What the legacy code computed, lockstep: per iteration, every lane of the
// warp evaluates the condition before any arm runs. Conditions are the same
// for both lanes of a pair (t, t ^ 1), so __shfl_xor(v, 1) reads a lane of the
// same arm; the other arm only votes, over the lanes in it. Threads past n
// take part with v = 0; outputs hold the n in-range values.
//
// Shapes: even block sizes (a lane's pair partner must exist), at most 1024.
//
// @shapes 128x40:5000 48x100:4700 100x37:3650 1024x3:3000
// @sanitize 48x2:90
// @time 256x4096:1048576
#include "../../harness.h"

constexpr int kMaxBlock = 1024;

__global__ void loopCarried(const int *in, int *out, int n) {
  __shared__ int cur[kMaxBlock];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int t = threadIdx.x;
  int v = i < n ? in[i] : 0;
  cur[t] = v & 3;
  __syncwarp();
  for (int it = 0; it < 4; ++it) {
    if (cur[t] + cur[t ^ 1] > it + 1) {
      v += __shfl_xor(v, 1);
    } else {
      v += __popc(__ballot(v & 1));
    }
    cur[t] = v & 3;
  }
  if (i < n)
    out[i] = v;
}

__global__ void loopContinue(const int *in, const int *limits, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : 0;
  for (int it = 0; it < 4; ++it) {
    if (limits[i / 2] > it) {
      v += __shfl_xor(v, 1) & 255;
      continue;
    }
    v += __popc(__ballot(v & 1));
  }
  if (i < n)
    out[i] = v;
}

__global__ void loopBreak(const int *in, const int *limits, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : 0;
  for (int it = 0; it < 4; ++it) {
    v += __shfl_xor(v, 1) & 255;
    if (limits[i / 2] <= it) {
      break;
    }
  }
  v += 1000 * __popc(__ballot(v & 1));
  if (i < n)
    out[i] = v;
}

struct Expected {
  std::vector<int> carried, cont, brk;
};

static Expected reference(const std::vector<int> &in, const std::vector<int> &limits,
                          const harness::Shape &s) {
  Expected e{std::vector<int>(s.n), std::vector<int>(s.n), std::vector<int>(s.n)};
  auto at = [&](int i) { return i < s.n ? in[i] : 0; };
  auto popc = [](unsigned m) { return __builtin_popcount(m); };
  int warps = harness::warpsPerBlock(s.blockSize);
  for (int b = 0; b < s.numBlocks; ++b)
    for (int w = 0; w < warps; ++w) {
      int lanes = harness::lanesInWarp(s.blockSize, w);
      int base = b * s.blockSize + w * 32;
      auto store = [&](std::vector<int> &out, const int *v) {
        for (int l = 0; l < lanes; ++l)
          if (base + l < s.n)
            out[base + l] = v[l];
      };
      // loopCarried
      int v[32], cur[32];
      for (int l = 0; l < lanes; ++l) {
        v[l] = at(base + l);
        cur[l] = v[l] & 3;
      }
      for (int it = 0; it < 4; ++it) {
        bool taken[32];
        unsigned odd = 0;
        for (int l = 0; l < lanes; ++l) {
          taken[l] = cur[l] + cur[l ^ 1] > it + 1;
          if (!taken[l] && (v[l] & 1))
            odd |= 1u << l;
        }
        int next[32];
        for (int l = 0; l < lanes; ++l)
          next[l] = taken[l] ? v[l] + v[l ^ 1] : v[l] + popc(odd);
        for (int l = 0; l < lanes; ++l) {
          v[l] = next[l];
          cur[l] = v[l] & 3;
        }
      }
      store(e.carried, v);
      // loopContinue
      for (int l = 0; l < lanes; ++l)
        v[l] = at(base + l);
      for (int it = 0; it < 4; ++it) {
        bool taken[32];
        unsigned odd = 0;
        for (int l = 0; l < lanes; ++l) {
          taken[l] = limits[(base + l) / 2] > it;
          if (!taken[l] && (v[l] & 1))
            odd |= 1u << l;
        }
        int next[32];
        for (int l = 0; l < lanes; ++l)
          next[l] = taken[l] ? v[l] + (v[l ^ 1] & 255) : v[l] + popc(odd);
        for (int l = 0; l < lanes; ++l)
          v[l] = next[l];
      }
      store(e.cont, v);
      // loopBreak
      bool left[32] = {};
      for (int l = 0; l < lanes; ++l)
        v[l] = at(base + l);
      for (int it = 0; it < 4; ++it) {
        int next[32];
        for (int l = 0; l < lanes; ++l)
          next[l] = left[l] ? v[l] : v[l] + (v[l ^ 1] & 255);
        for (int l = 0; l < lanes; ++l) {
          v[l] = next[l];
          if (limits[(base + l) / 2] <= it)
            left[l] = true;
        }
      }
      unsigned odd = 0;
      for (int l = 0; l < lanes; ++l)
        if (v[l] & 1)
          odd |= 1u << l;
      for (int l = 0; l < lanes; ++l)
        v[l] += 1000 * popc(odd);
      store(e.brk, v);
    }
  return e;
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require((long long)s.blockSize * s.numBlocks >= s.n, "the grid must cover n");
  harness::require(s.blockSize % 2 == 0, "each lane's pair partner must exist");
  harness::require(s.blockSize <= kMaxBlock, "one slot per thread");
  harness::Rng rng(s.seed);
  int threads = s.blockSize * s.numBlocks;
  std::vector<int> in = harness::randomInts(rng, s.n, -1000, 1000);
  std::vector<int> limits = harness::randomInts(rng, threads / 2, 0, 4);
  Expected want = reference(in, limits, s);
  harness::DeviceArray<int> dIn(in), dLimits(limits), dCarried(s.n), dCont(s.n), dBrk(s.n);
  return harness::run(s,
                      {harness::expect("loopCarried", dCarried, want.carried),
                       harness::expect("loopContinue", dCont, want.cont),
                       harness::expect("loopBreak", dBrk, want.brk)},
                      [&] {
                        loopCarried<<<s.numBlocks, s.blockSize>>>(dIn.get(), dCarried.get(), s.n);
                        loopContinue<<<s.numBlocks, s.blockSize>>>(dIn.get(), dLimits.get(),
                                                                   dCont.get(), s.n);
                        loopBreak<<<s.numBlocks, s.blockSize>>>(dIn.get(), dLimits.get(),
                                                                dBrk.get(), s.n);
                      });
}
