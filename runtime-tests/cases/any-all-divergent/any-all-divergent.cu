// The legacy votes __any and __all in both arms of a lane-dependent branch.
// A legacy vote counted the lanes active at the call: here the lanes of its
// own arm, so each arm's flags describe that arm only. A rewrite that gave
// these calls the full mask would change the answer (or hang), which this
// case is there to catch.
//
// The input mixes runs of 32 values of different kinds (all small positive,
// all even, zeros, mixed) so that every vote is sometimes true and sometimes
// false. Threads past n take the else arm with the value 0.
//
// Shapes: any block size; the lanes a partial warp does not have do not vote.
//
// @shapes 128x40:5000 48x100:4700 100x37:3650 1024x3:3000
// @sanitize 100x2:190
// @time 256x4096:1048576
#include "../../harness.h"

__global__ void voteFlags(const int *in, int *flags, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : 0;
  int f;
  if (v > 0) {
    int anyOdd = __any(v & 1) != 0;
    int allSmall = __all(v < 50) != 0;
    f = 1 | anyOdd << 1 | allSmall << 2;
  } else {
    int anyZero = __any(v == 0) != 0;
    int allEven = __all((v & 1) == 0) != 0;
    f = anyZero << 3 | allEven << 4;
  }
  if (i < n)
    flags[i] = f;
}

static std::vector<int> reference(const std::vector<int> &in, const harness::Shape &s) {
  std::vector<int> flags(s.n);
  int warps = harness::warpsPerBlock(s.blockSize);
  for (int b = 0; b < s.numBlocks; ++b)
    for (int w = 0; w < warps; ++w) {
      int first = b * s.blockSize + w * 32, lanes = harness::lanesInWarp(s.blockSize, w);
      auto value = [&](int i) { return i < s.n ? in[i] : 0; };
      // The votes of each arm, over the lanes of the warp that take it.
      int anyOdd = 0, allSmall = 1, anyZero = 0, allEven = 1;
      for (int i = first; i < first + lanes; ++i) {
        int v = value(i);
        if (v > 0) {
          anyOdd |= v & 1;
          allSmall &= v < 50;
        } else {
          anyZero |= v == 0;
          allEven &= (v & 1) == 0;
        }
      }
      for (int i = first; i < std::min(first + lanes, s.n); ++i)
        flags[i] = value(i) > 0 ? 1 | anyOdd << 1 | allSmall << 2 : anyZero << 3 | allEven << 4;
    }
  return flags;
}

static std::vector<int> makeInput(harness::Rng &rng, int n) {
  std::vector<int> in(n);
  for (int start = 0; start < n; start += 32) {
    long long kind = rng.range(0, 4);
    for (int i = start; i < std::min(start + 32, n); ++i) {
      switch (kind) {
      case 0: in[i] = (int)rng.range(1, 49); break;           // all positive, all small
      case 1: in[i] = 2 * (int)rng.range(-40, 40); break;     // all even
      case 2: in[i] = (int)rng.range(-1, 1); break;           // many zeros
      case 3: in[i] = (int)rng.range(-100, 100); break;       // mixed
      default: in[i] = -2 * (int)rng.range(1, 50); break;     // all negative, even
      }
    }
  }
  return in;
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require((long long)s.blockSize * s.numBlocks >= s.n, "the grid must cover n");
  harness::Rng rng(s.seed);
  std::vector<int> in = makeInput(rng, s.n);
  harness::DeviceArray<int> dIn(in), dFlags(s.n);
  return harness::run(s, {harness::expect("flags", dFlags, reference(in, s))}, [&] {
    voteFlags<<<s.numBlocks, s.blockSize>>>(dIn.get(), dFlags.get(), s.n);
  });
}
