// Issue 13, pattern 5: warp-synchronous shared-memory code whose steps are
// guarded by lane conditions, through a volatile pointer, as legacy code had
// it. warpScans runs a Hillis-Steele inclusive scan,
// `if (lane >= offset) s[tid] += s[tid - offset];` in a braced loop;
// warpSums a tree whose steps shrink, `if (lane < 16) s[tid] += s[tid + 16];`
// down to 1. Both relied on the warp running in lockstep: a lane reads a slot
// that another lane writes in the same step (the scan) or wrote in the step
// before (the tree). The fix needs barriers, and a barrier inside a guard
// that only some lanes enter must not name the others: the scan's readers
// and writers of two steps are different lane sets, so its barriers belong
// outside the guard, where every lane arrives (issue 13: a full-mask
// __syncwarp inside `if (l < 16)`, and in the scan different __syncwarp
// sites that satisfied one another, gave a wrong warp total on an H100). No
// legacy intrinsic here: this case is for the shared-memory race check.
//
// What the legacy code computed: each warp's inclusive scan, and each warp's
// sum. Each block zeroes its shared array first, including 16 slots past the
// block for the tree's reads of s[tid + 16] in a partial warp, so blocks of
// 48 and 100 are defined. Threads past n hold 0.
//
// @shapes 128x40:5000 48x100:4700 100x37:3650 1024x3:3000
// @sanitize 48x2:90
// @time 256x4096:1048576
#include "../../harness.h"

constexpr int kMaxBlock = 1024;

__global__ void warpScans(const int *in, int *scan, int *warpTotals, int n) {
  __shared__ int sdata[kMaxBlock];
  volatile int *s = sdata;
  int tid = threadIdx.x;
  int lane = tid % 32;
  int i = blockIdx.x * blockDim.x + tid;
  s[tid] = i < n ? in[i] : 0;
  for (int offset = 1; offset < 32; offset *= 2) {
    if (lane >= offset)
      s[tid] += s[tid - offset];
  }
  if (i < n)
    scan[i] = s[tid];
  if (lane == 31 || tid == blockDim.x - 1)
    warpTotals[blockIdx.x * ((blockDim.x + 31) / 32) + tid / 32] = s[tid];
}

__global__ void warpSums(const int *in, int *sums, int n) {
  __shared__ int sdata[kMaxBlock + 16];
  for (int k = threadIdx.x; k < kMaxBlock + 16; k += blockDim.x)
    sdata[k] = 0;
  __syncthreads();
  volatile int *s = sdata;
  unsigned tid = threadIdx.x;
  unsigned lane = tid % 32;
  int i = blockIdx.x * blockDim.x + tid;
  s[tid] = i < n ? in[i] : 0;
  if (lane < 16) s[tid] += s[tid + 16];
  if (lane < 8) s[tid] += s[tid + 8];
  if (lane < 4) s[tid] += s[tid + 4];
  if (lane < 2) s[tid] += s[tid + 2];
  if (lane < 1) s[tid] += s[tid + 1];
  if (lane == 0)
    sums[blockIdx.x * ((blockDim.x + 31) / 32) + tid / 32] = s[tid];
}

struct Expected {
  std::vector<int> scan, totals;
};

static Expected reference(const std::vector<int> &in, const harness::Shape &s) {
  int warps = harness::warpsPerBlock(s.blockSize);
  Expected e{std::vector<int>(s.n), std::vector<int>(s.numBlocks * warps)};
  for (int b = 0; b < s.numBlocks; ++b)
    for (int w = 0; w < warps; ++w) {
      int running = 0;
      for (int lane = 0; lane < harness::lanesInWarp(s.blockSize, w); ++lane) {
        int i = b * s.blockSize + w * 32 + lane;
        running += i < s.n ? in[i] : 0;
        if (i < s.n)
          e.scan[i] = running;
      }
      e.totals[b * warps + w] = running;
    }
  return e;
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require((long long)s.blockSize * s.numBlocks >= s.n, "the grid must cover n");
  harness::Rng rng(s.seed);
  std::vector<int> in = harness::randomInts(rng, s.n, -1000, 1000);
  Expected want = reference(in, s);
  int warps = s.numBlocks * harness::warpsPerBlock(s.blockSize);
  harness::DeviceArray<int> dIn(in), dScan(s.n), dTotals(warps), dSums(warps);
  return harness::run(s,
                      {harness::expect("scan", dScan, want.scan),
                       harness::expect("warpTotals", dTotals, want.totals),
                       harness::expect("warpSums", dSums, want.totals)},
                      [&] {
                        warpScans<<<s.numBlocks, s.blockSize>>>(dIn.get(), dScan.get(),
                                                                dTotals.get(), s.n);
                        warpSums<<<s.numBlocks, s.blockSize>>>(dIn.get(), dSums.get(), s.n);
                      });
}
