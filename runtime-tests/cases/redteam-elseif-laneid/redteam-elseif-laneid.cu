// Red team (control; expected correct): hoisted ballots for an else-if chain
// whose conditions read a lane id taken from inline PTX (%laneid) and data,
// and a branch whose body changes the variable its condition read before the
// vote. warpfix hoists `!(a) && (b)` and `!(a) && !(b)` ballots before the
// chain and the ballot of `x > 5` before the second branch.
//
// What the legacy code computed: classify: lanes with laneid % 3 == 0 get 1;
// the others with x % 3 == 1 get the number of such lanes (in range) of
// their warp with x > 40; the rest get 100 * any(x > 90) over the rest.
// shifted: lanes with x > 5 get the number of lanes with x > 5 (in range)
// whose x - 10 > 30; others 0. Lanes past n return first.
//
// @shapes 128x40:5000 48x100:4700 100x37:3650 1024x3:3000
// @sanitize 48x2:90
// @time 256x4096:1048576
#include "../../harness.h"

__global__ void classify(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  unsigned lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  int x = in[i];
  int r = 0;
  if (lane % 3 == 0) {
    r = 1;
  } else if (x % 3 == 1) {
    r = __popc(__ballot(x > 40));
  } else {
    r = 100 * (__any(x > 90) != 0);
  }
  out[i] = r;
}

__global__ void shifted(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int x = in[i];
  int r = 0;
  if (x > 5) {
    x -= 10;
    r = __popc(__ballot(x > 30));
  }
  out[i] = r;
}

struct Expected {
  std::vector<int> classify, shifted;
};

static Expected reference(const std::vector<int> &in, const harness::Shape &s) {
  Expected e{std::vector<int>(s.n), std::vector<int>(s.n)};
  int warps = harness::warpsPerBlock(s.blockSize);
  for (int b = 0; b < s.numBlocks; ++b)
    for (int w = 0; w < warps; ++w) {
      int base = b * s.blockSize + w * 32, lanes = harness::lanesInWarp(s.blockSize, w);
      int mid = 0, big = 0;
      bool restAny = false;
      for (int l = 0; l < lanes; ++l) {
        int i = base + l;
        if (i >= s.n)
          continue;
        int x = in[i];
        if (l % 3 != 0 && x % 3 == 1)
          mid += x > 40;
        else if (l % 3 != 0)
          restAny = restAny || x > 90;
        if (x > 5)
          big += x - 10 > 30;
      }
      for (int l = 0; l < lanes; ++l) {
        int i = base + l;
        if (i >= s.n)
          continue;
        int x = in[i];
        e.classify[i] = l % 3 == 0 ? 1 : x % 3 == 1 ? mid : 100 * restAny;
        e.shifted[i] = x > 5 ? big : 0;
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
  harness::DeviceArray<int> dIn(in), dClassify(s.n), dShifted(s.n);
  return harness::run(s,
                      {harness::expect("classify", dClassify, want.classify),
                       harness::expect("shifted", dShifted, want.shifted)},
                      [&] {
                        classify<<<s.numBlocks, s.blockSize>>>(dIn.get(), dClassify.get(), s.n);
                        shifted<<<s.numBlocks, s.blockSize>>>(dIn.get(), dShifted.get(), s.n);
                      });
}
