// Stream compaction with the legacy __ballot: each warp keeps its multiples of
// 3, in order, at the start of its own 32-slot segment, and writes how many it
// kept. Threads past n have returned before the vote; the remaining lanes of
// the last warp are the ones the legacy ballot counted.
//
// Shapes: any block size; 48 and 100 give partial warps, and n cuts the last
// warp short. Segments of warps with no element left keep the sentinel.
//
// @shapes 128x40:5000 48x100:4700 100x37:3650 1024x3:3000
// @sanitize 100x2:190
// @time 256x4096:1048576
#include "../../harness.h"

__global__ void compactMultiplesOf3(const int *in, int *out, int *counts, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int lane = threadIdx.x % 32;
  int warp = blockIdx.x * ((blockDim.x + 31) / 32) + threadIdx.x / 32;
  int v = in[i];
  bool keep = v % 3 == 0;
  unsigned kept = __ballot(keep);
  int rank = __popc(kept & ((1u << lane) - 1));
  if (keep)
    out[warp * 32 + rank] = v;
  if (lane == 0)
    counts[warp] = __popc(kept);
}

struct Expected {
  std::vector<int> out, counts;
};

static Expected reference(const std::vector<int> &in, const harness::Shape &s) {
  int warps = harness::warpsPerBlock(s.blockSize);
  Expected e{std::vector<int>(s.numBlocks * warps * 32, harness::sentinel<int>()),
             std::vector<int>(s.numBlocks * warps, harness::sentinel<int>())};
  for (int b = 0; b < s.numBlocks; ++b)
    for (int w = 0; w < warps; ++w) {
      int first = b * s.blockSize + w * 32;
      int last = std::min(first + harness::lanesInWarp(s.blockSize, w), s.n);
      if (first >= last)
        continue;
      int segment = b * warps + w, kept = 0;
      for (int i = first; i < last; ++i)
        if (in[i] % 3 == 0)
          e.out[segment * 32 + kept++] = in[i];
      e.counts[segment] = kept;
    }
  return e;
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::Rng rng(s.seed);
  std::vector<int> in = harness::randomInts(rng, s.n, -1000, 1000);
  Expected want = reference(in, s);
  harness::DeviceArray<int> dIn(in), dOut(want.out.size()), dCounts(want.counts.size());
  return harness::run(s,
                      {harness::expect("out", dOut, want.out),
                       harness::expect("counts", dCounts, want.counts)},
                      [&] {
                        compactMultiplesOf3<<<s.numBlocks, s.blockSize>>>(
                            dIn.get(), dOut.get(), dCounts.get(), s.n);
                      });
}
