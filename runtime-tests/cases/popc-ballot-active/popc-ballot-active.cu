// __popc(__ballot(1)), the legacy idiom for "how many lanes are here", in
// three places: at kernel entry (the lanes the block gives this warp), after
// an early return on i >= n (the lanes left), and inside a branch on the
// value (the lanes of that branch). The faithful rewrite is
// __popc(__activemask()) or a mask that names the same lanes, never a count
// of 32.
//
// Shapes: any block size; 48 and 100 give partial warps, and n cuts the last
// warp short. Warps with no element left keep the sentinel in liveLanes.
//
// @shapes 128x40:5000 48x100:4700 100x37:3650 1024x3:3000
// @sanitize 100x2:190
// @time 256x4096:1048576
#include "../../harness.h"

__global__ void countLanes(const int *in, int *presentLanes, int *liveLanes, int *oddLanes,
                           int n) {
  int warp = blockIdx.x * ((blockDim.x + 31) / 32) + threadIdx.x / 32;
  int lane = threadIdx.x % 32;
  int present = __popc(__ballot(1));
  if (lane == 0)
    presentLanes[warp] = present;

  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int live = __popc(__ballot(1));
  if (lane == 0)
    liveLanes[warp] = live;

  int odd = 0;
  if (in[i] & 1)
    odd = __popc(__ballot(1));
  oddLanes[i] = odd;
}

struct Expected {
  std::vector<int> present, live, odd;
};

static Expected reference(const std::vector<int> &in, const harness::Shape &s) {
  int warps = harness::warpsPerBlock(s.blockSize);
  Expected e{std::vector<int>(s.numBlocks * warps),
             std::vector<int>(s.numBlocks * warps, harness::sentinel<int>()),
             std::vector<int>(s.n, harness::sentinel<int>())};
  for (int b = 0; b < s.numBlocks; ++b)
    for (int w = 0; w < warps; ++w) {
      int first = b * s.blockSize + w * 32, lanes = harness::lanesInWarp(s.blockSize, w);
      int last = std::min(first + lanes, s.n);
      e.present[b * warps + w] = lanes;
      if (first >= last)
        continue;
      e.live[b * warps + w] = last - first;
      int odd = 0;
      for (int i = first; i < last; ++i)
        odd += in[i] & 1;
      for (int i = first; i < last; ++i)
        e.odd[i] = in[i] & 1 ? odd : 0;
    }
  return e;
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::Rng rng(s.seed);
  std::vector<int> in = harness::randomInts(rng, s.n, -1000, 1000);
  Expected want = reference(in, s);
  harness::DeviceArray<int> dIn(in), dPresent(want.present.size()), dLive(want.live.size()),
      dOdd(s.n);
  return harness::run(s,
                      {harness::expect("presentLanes", dPresent, want.present),
                       harness::expect("liveLanes", dLive, want.live),
                       harness::expect("oddLanes", dOdd, want.odd)},
                      [&] {
                        countLanes<<<s.numBlocks, s.blockSize>>>(dIn.get(), dPresent.get(),
                                                                 dLive.get(), dOdd.get(), s.n);
                      });
}
