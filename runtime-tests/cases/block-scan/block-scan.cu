// A block-wide inclusive scan built on a legacy __shfl_up warp scan in a
// device function: each warp scans, the last lane present in each warp stores
// the warp's total, warp 0 scans the totals, and every warp adds the totals
// of the warps before it. Each block also writes its total.
//
// Shapes: any block size. A partial warp (blocks of 48 and 100) is defined:
// the scan reads lower lanes only, and its total comes from its last present
// lane rather than lane 31. Threads past n scan a 0.
//
// @shapes 128x40:5000 48x100:4700 100x37:3650 1024x3:3000
// @sanitize 100x2:190
// @time 256x4096:1048576
#include "../../harness.h"

__device__ int warpScan(int v) {
  int lane = threadIdx.x % 32;
  for (int delta = 1; delta < 32; delta *= 2) {
    int t = __shfl_up(v, delta);
    if (lane >= delta)
      v += t;
  }
  return v;
}

__global__ void blockScan(const int *in, int *out, int *blockTotals, int n) {
  __shared__ int warpTotals[32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32;
  int warp = threadIdx.x / 32;
  int warps = (blockDim.x + 31) / 32;

  int v = warpScan(i < n ? in[i] : 0);
  if (lane == 31 || threadIdx.x == blockDim.x - 1)
    warpTotals[warp] = v;
  __syncthreads();
  if (warp == 0) {
    int total = warpScan(lane < warps ? warpTotals[lane] : 0);
    warpTotals[lane] = total;
  }
  __syncthreads();
  if (warp > 0)
    v += warpTotals[warp - 1];
  if (i < n)
    out[i] = v;
  if (threadIdx.x == blockDim.x - 1)
    blockTotals[blockIdx.x] = v;
}

struct Expected {
  std::vector<int> scan, totals;
};

static Expected reference(const std::vector<int> &in, const harness::Shape &s) {
  Expected e{std::vector<int>(s.n), std::vector<int>(s.numBlocks)};
  for (int b = 0; b < s.numBlocks; ++b) {
    int running = 0;
    for (int t = 0; t < s.blockSize; ++t) {
      int i = b * s.blockSize + t;
      running += i < s.n ? in[i] : 0;
      if (i < s.n)
        e.scan[i] = running;
    }
    e.totals[b] = running;
  }
  return e;
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require((long long)s.blockSize * s.numBlocks >= s.n, "the grid must cover n");
  harness::Rng rng(s.seed);
  std::vector<int> in = harness::randomInts(rng, s.n, 0, 99);
  Expected want = reference(in, s);
  harness::DeviceArray<int> dIn(in), dOut(s.n), dTotals(s.numBlocks);
  return harness::run(s,
                      {harness::expect("scan", dOut, want.scan),
                       harness::expect("blockTotals", dTotals, want.totals)},
                      [&] {
                        blockScan<<<s.numBlocks, s.blockSize>>>(dIn.get(), dOut.get(),
                                                                dTotals.get(), s.n);
                      });
}
