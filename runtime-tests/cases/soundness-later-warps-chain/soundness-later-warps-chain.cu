// Soundness: a legacy warp-synchronous reduction chain that only the later
// warps of the block run. The block is warp-specialised: warps 0 and 1 scale
// their elements and write them out, warps 2 and 3 (`if (t >= 64)`) each sum
// their 32 elements in shared memory with the unsynchronised chain
// `if ((t & 31) < 16) s[t] += s[t + 16]; ... if ((t & 31) < 1) s[t] += s[t + 1];`
// through a volatile pointer, relying on lockstep: lane l reads s[t + k]
// while lane l + k writes it, and the slot lane l + k wrote in the step
// before. A race checker that looked only at warp 0's lanes, or that took
// the guard `t >= 64` to leave no lane of a warp that races, would miss it.
//
// warpfix finds the race at every step and fixes it as listing 8 does: each
// step reads into a local, __syncwarp(), then writes, then __syncwarp(),
// with the barriers outside the lane guard, where every lane of the warp
// arrives (the whole of warps 2 and 3 enter `t >= 64`, so the full mask is
// right there). The rewritten program must be racecheck-clean.
//
// What the legacy code computed: out[i] = 3 * in[i] for the first 64 threads
// of each block, and the sum of each of warps 2 and 3 (0 past n) in
// sums[2 * block + warp - 2].
//
// Shapes: blocks of 128 threads, the kernel's launch.
//
// @shapes 128x40:5000 128x100:12800 128x37:3650 128x3:300
// @sanitize 128x2:200
// @time 128x8192:1048576
#include "../../harness.h"

__global__ void splitWork(const int *in, int *out, int *sums, int n) {
  __shared__ int sdata[128];
  volatile int *s = sdata;
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  int v = i < n ? in[i] : 0;
  if (t >= 64) { // warps 2 and 3
    s[t] = v;
    if ((t & 31) < 16) s[t] += s[t + 16];
    if ((t & 31) < 8) s[t] += s[t + 8];
    if ((t & 31) < 4) s[t] += s[t + 4];
    if ((t & 31) < 2) s[t] += s[t + 2];
    if ((t & 31) < 1) s[t] += s[t + 1];
    if ((t & 31) == 0)
      sums[2 * blockIdx.x + t / 32 - 2] = s[t];
  } else if (i < n) {
    out[i] = 3 * v;
  }
}

struct Expected {
  std::vector<int> out, sums;
};

static Expected reference(const std::vector<int> &in, const harness::Shape &s) {
  Expected e{std::vector<int>(s.n, harness::sentinel<int>()), std::vector<int>(2 * s.numBlocks)};
  for (int b = 0; b < s.numBlocks; ++b)
    for (int t = 0; t < 128; ++t) {
      long long i = (long long)b * 128 + t;
      int v = i < s.n ? in[i] : 0;
      if (t < 64) {
        if (i < s.n)
          e.out[i] = 3 * v;
      } else {
        e.sums[2 * b + t / 32 - 2] += v;
      }
    }
  return e;
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require(s.blockSize == 128, "splitWork is launched with blocks of 128 threads");
  harness::Rng rng(s.seed);
  std::vector<int> in = harness::randomInts(rng, s.n, -1000, 1000);
  Expected want = reference(in, s);
  harness::DeviceArray<int> dIn(in), dOut(s.n), dSums(2 * s.numBlocks);
  return harness::run(s,
                      {harness::expect("out", dOut, want.out),
                       harness::expect("sums", dSums, want.sums)},
                      [&] {
                        splitWork<<<s.numBlocks, 128>>>(dIn.get(), dOut.get(), dSums.get(),
                                                        s.n);
                      });
}
