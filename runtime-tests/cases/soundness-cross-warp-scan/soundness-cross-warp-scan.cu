// Soundness: a block-wide race that a __syncwarp cannot fix. repeatedScan
// computes prefix sums of order 1 to kOrders of each block's values (the
// scan of the scan, as repeated box filters do), with a Hillis-Steele scan in
// shared memory and __syncthreads() between its steps. Each order ends with
// every thread reading the block's total, buf[blockDim.x - 1], and the next
// order begins with every thread storing its value into buf[tid] with no
// barrier in between, in the legacy way: thread blockDim.x - 1 may overwrite
// buf[blockDim.x - 1] while the other threads, of its own warp and of the
// other warps, have not yet read it.
//
// warpfix reports the race (lane 31 of warp 1 writes buf[63] and lane 0
// reads it, in the block of two warps it models with the launch's size
// unknown) and refuses the fix: threads of different warps meet through the
// same accesses (thread 63 writes, thread 0 of warp 0 reads), a __syncwarp()
// orders only the lanes of one warp, and its note asks for a __syncthreads()
// instead. That is right: a __syncwarp would leave the cross-warp race. The
// rewritten program is the original; racecheck hazards in it are tolerated
// because warpfix reports the race unfixed.
//
// Why the comparison is deterministic all the same: the value thread
// blockDim.x - 1 stores is its own x, which it has just read from
// buf[blockDim.x - 1] itself; the overwrite writes the value that is already
// there, so every thread reads the total whichever access comes first. The
// race is real (racecheck may report it), its outcome is not.
//
// What the legacy code computed: for each block, its values (0 past n), and
// for each order k the k-th iterated inclusive prefix sum; out gets the last
// order, after the last order's total less that, totals each order's block
// total. Unsigned arithmetic wraps, so the sums are exact modulo 2^32 in any
// order.
//
// Shapes: blocks of up to 256 threads (the shared buffer), partial warps
// allowed.
//
// @shapes 64x40:2500 128x40:5000 256x16:4000 48x100:4700 100x37:3650
// @sanitize 64x2:120
// @time 256x4096:1048576
#include "../../harness.h"

constexpr int kMaxBlock = 256;
constexpr int kOrders = 3;

__global__ void repeatedScan(const unsigned *in, unsigned *out, unsigned *after,
                             unsigned *totals, int n) {
  __shared__ unsigned buf[kMaxBlock];
  int tid = threadIdx.x;
  int i = blockIdx.x * blockDim.x + tid;
  unsigned x = i < n ? in[i] : 0;
  unsigned total = 0;
  for (int k = 0; k < kOrders; ++k) {
    buf[tid] = x;
    __syncthreads();
    for (int offset = 1; offset < blockDim.x; offset *= 2) {
      unsigned y = tid >= offset ? buf[tid - offset] : 0;
      __syncthreads();
      buf[tid] += y;
      __syncthreads();
    }
    x = buf[tid];
    total = buf[blockDim.x - 1];
    if (tid == 0)
      totals[blockIdx.x * kOrders + k] = total;
  }
  if (i < n) {
    out[i] = x;
    after[i] = total - x; // what the last order adds after element i
  }
}

struct Expected {
  std::vector<unsigned> out, after, totals;
};

static Expected reference(const std::vector<unsigned> &in, const harness::Shape &s) {
  Expected e{std::vector<unsigned>(s.n), std::vector<unsigned>(s.n),
             std::vector<unsigned>(s.numBlocks * kOrders)};
  std::vector<unsigned> x(s.blockSize);
  for (int b = 0; b < s.numBlocks; ++b) {
    for (int t = 0; t < s.blockSize; ++t) {
      long long i = (long long)b * s.blockSize + t;
      x[t] = i < s.n ? in[i] : 0;
    }
    for (int k = 0; k < kOrders; ++k) {
      for (int t = 1; t < s.blockSize; ++t)
        x[t] += x[t - 1];
      e.totals[b * kOrders + k] = x[s.blockSize - 1];
    }
    for (int t = 0; t < s.blockSize; ++t) {
      long long i = (long long)b * s.blockSize + t;
      if (i < s.n) {
        e.out[i] = x[t];
        e.after[i] = x[s.blockSize - 1] - x[t];
      }
    }
  }
  return e;
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require(s.blockSize <= kMaxBlock, "the shared buffer holds 256 values");
  harness::Rng rng(s.seed);
  std::vector<int> values = harness::randomInts(rng, s.n, 0, 1000000);
  std::vector<unsigned> in(values.begin(), values.end());
  Expected want = reference(in, s);
  harness::DeviceArray<unsigned> dIn(in), dOut(s.n), dAfter(s.n), dTotals(s.numBlocks * kOrders);
  return harness::run(s,
                      {harness::expect("out", dOut, want.out),
                       harness::expect("after", dAfter, want.after),
                       harness::expect("totals", dTotals, want.totals)},
                      [&] {
                        repeatedScan<<<s.numBlocks, s.blockSize>>>(
                            dIn.get(), dOut.get(), dAfter.get(), dTotals.get(), s.n);
                      });
}
