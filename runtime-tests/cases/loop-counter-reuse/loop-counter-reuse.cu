// A loop counter declared once and reused, as C-era kernels do (gromacs'
// nbnxn kernels). `i` first counts a loop that only lanes 0 to 11 run, with a
// lane-dependent bound; then it counts three other loops. warpfix judges each
// use of `i` inside a `for (i = e; ...)` by that init and the loop's own
// steps only (LaneDependence::ofLoopCounter), since every lane in the loop
// ran the init:
//   - the butterfly's bound is a constant, so every lane reaches its
//     __shfl_xor and the full mask is exact;
//   - in the rounds loop (gromacs' pruning shape), a legacy __any sits under
//     a lane-dependent branch: its mask is a ballot of the branch, taken
//     inside the uniform loop;
//   - after a loop whose bound is lane-dependent, `i` is lane-dependent: the
//     __ballot under `if (i > 3)` gets a ballot of that condition.
//
// What the legacy code computed: each vote is over the lanes active at it
// (the branch's lanes); the butterfly gives every lane its warp's sum.
//
// Shapes: block sizes are multiples of 32 (the butterfly reads every lane of
// the warp). Threads past n hold 0 and take part.
//
// @shapes 128x40:5000 32x100:3190 256x12:3072 1024x3:2500
// @sanitize 64x2:100
// @time 256x4096:1048576
#include "../../harness.h"

constexpr int kRounds = 4;

__global__ void reuseCounter(const int *in, int *sums, int *hits, int *tails,
                             int n) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x & 31;
  int i;
  int v = gid < n ? in[gid] : 0;
  int extra = 0;
  if (lane < 12) {
    for (i = 0; i < lane; i++)
      extra += v ^ i;
  }
  int s = v;
  for (i = 16; i > 0; i /= 2)
    s += __shfl_xor(s, i);
  int h = 0;
  for (i = 0; i < kRounds; i++) {
    if ((v + i) % 3 != 0) {
      if (__any((v >> i) & 1))
        h += 1 << i;
    }
  }
  for (i = 0; i < (v & 7); i++)
    extra += i;
  int tail = 0;
  if (i > 3)
    tail = __popc(__ballot(v & 1));
  if (gid < n) {
    sums[gid] = s;
    hits[gid] = h;
    tails[gid] = 1000 * tail + extra;
  }
}

struct Expected {
  std::vector<int> sums, hits, tails;
};

static Expected reference(const std::vector<int> &in, const harness::Shape &s) {
  Expected e{std::vector<int>(s.n), std::vector<int>(s.n), std::vector<int>(s.n)};
  for (int b = 0; b < s.numBlocks; ++b)
    for (int w = 0; w < harness::warpsPerBlock(s.blockSize); ++w) {
      int first = b * s.blockSize + w * 32;
      std::vector<int> v(32);
      for (int lane = 0; lane < 32; ++lane)
        v[lane] = first + lane < s.n ? in[first + lane] : 0;
      int sum = 0;
      for (int x : v)
        sum += x;
      std::vector<int> h(32, 0);
      for (int i = 0; i < kRounds; ++i) {
        bool any = false;
        for (int lane = 0; lane < 32; ++lane)
          if ((v[lane] + i) % 3 != 0 && ((v[lane] >> i) & 1))
            any = true;
        for (int lane = 0; lane < 32; ++lane)
          if ((v[lane] + i) % 3 != 0 && any)
            h[lane] += 1 << i;
      }
      unsigned odd = 0;
      for (int lane = 0; lane < 32; ++lane)
        if ((v[lane] & 7) > 3 && (v[lane] & 1))
          odd |= 1u << lane;
      for (int lane = 0; lane < 32; ++lane) {
        int gid = first + lane;
        if (gid >= s.n)
          continue;
        int extra = 0;
        for (int i = 0; i < (lane < 12 ? lane : 0); ++i)
          extra += v[lane] ^ i;
        for (int i = 0; i < (v[lane] & 7); ++i)
          extra += i;
        int tail = (v[lane] & 7) > 3 ? __builtin_popcount(odd) : 0;
        e.sums[gid] = sum;
        e.hits[gid] = h[lane];
        e.tails[gid] = 1000 * tail + extra;
      }
    }
  return e;
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require(s.blockSize % 32 == 0, "the butterfly reads every lane of the warp");
  harness::require((long long)s.blockSize * s.numBlocks >= s.n, "the grid must cover n");
  harness::Rng rng(s.seed);
  std::vector<int> in = harness::randomInts(rng, s.n, 0, 999);
  Expected want = reference(in, s);
  harness::DeviceArray<int> dIn(in), dSums(s.n), dHits(s.n), dTails(s.n);
  return harness::run(s,
                      {harness::expect("sums", dSums, want.sums),
                       harness::expect("hits", dHits, want.hits),
                       harness::expect("tails", dTails, want.tails)},
                      [&] {
                        reuseCounter<<<s.numBlocks, s.blockSize>>>(
                            dIn.get(), dSums.get(), dHits.get(), dTails.get(), s.n);
                      });
}
