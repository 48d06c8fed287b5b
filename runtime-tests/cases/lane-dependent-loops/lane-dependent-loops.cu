// Legacy warp votes and shuffles inside loops whose trip count differs
// between the lanes of a warp: a CSR row strided by the warp (SpMV's inner
// loop), a while loop over a queue with a continue, and a loop nested in
// another under a lane-dependent branch. Under the legacy semantics the lanes
// at an iteration were those whose loop condition still held; warpfix
// rewrites each loop so that the lanes that entered it stay in it until none
// has an iteration left, with a ballot of the condition as the mask of the
// body.
//
// Every value a lane reads is one that a lane of the iteration wrote: a vote,
// or a shuffle from the iteration's lowest lane. One warp per row; the rows
// have 0 to 3 * 32 + 7 entries, so the lanes leave at different iterations.
// Threads past the last row (n rows) return at once, with their whole warp.
//
// The emulated original (each legacy call over __activemask()) is no
// lockstep oracle here: once nvcc restructures a loop whose trip count
// differs by lane, the lanes of one source iteration need not be converged
// at the vote. The rewrite is judged against the CPU reference.
//
// @shapes 128x40:160 32x100:100 256x12:90 64x30:59
// @sanitize 64x4:8
// @time 256x2048:16384 grow=blocks
// @original not-lockstep
#include "../../harness.h"

__global__ void rows(const int *rowPtr, const int *val, int *votes,
                     int *firsts, int *queued, int *nested, int n) {
  int lane = threadIdx.x & 31;
  int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  if (row >= n)
    return;
  int rowStart = rowPtr[row], rowEnd = rowPtr[row + 1];

  // The CSR row: each iteration counts its odd entries and takes its lowest
  // lane's entry.
  int vote = 0, first = 0;
  for (int j = rowStart + lane; j < rowEnd; j += 32) {
    int v = val[j];
    vote += __popc(__ballot(v & 1));
    int leader = __ffs(__ballot(1)) - 1;
    first += __shfl(v, leader);
  }

  // A queue: entries that are multiples of 3 are skipped by a continue.
  int i = rowStart + lane, seen = 0;
  while (i < rowEnd) {
    if (val[i] % 3 == 0) {
      i += 32;
      continue;
    }
    seen += __popc(__ballot(val[i] > 50)) + (__any(val[i] > 90) ? 1000 : 0);
    i += 32;
  }

  // Nested loops under a branch that half the lanes take.
  int inner = 0;
  if (lane < 16) {
    for (int a = rowStart + lane; a < rowEnd; a += 16) {
      for (int b = a; b < rowEnd; b += 40) {
        inner += __popc(__ballot(val[b] & 2));
      }
    }
  }
  votes[row * 32 + lane] = vote;
  firsts[row * 32 + lane] = first;
  queued[row * 32 + lane] = seen;
  nested[row * 32 + lane] = inner;
}

struct Expected {
  std::vector<int> votes, firsts, queued, nested;
};

// The lanes of an iteration, in lockstep: for each lane the sequence of
// indices it visits; iteration k holds the lanes that have a k-th index.
static Expected reference(const std::vector<int> &rowPtr,
                          const std::vector<int> &val, int n) {
  Expected e{std::vector<int>(n * 32), std::vector<int>(n * 32),
             std::vector<int>(n * 32), std::vector<int>(n * 32)};
  for (int row = 0; row < n; ++row) {
    int start = rowPtr[row], end = rowPtr[row + 1];
    for (int k = 0; start + 32 * k < end; ++k) {
      int odd = 0, leader = -1;
      for (int lane = 0; lane < 32; ++lane) {
        int j = start + lane + 32 * k;
        if (j >= end)
          continue;
        odd += val[j] & 1;
        if (leader < 0)
          leader = j;
      }
      for (int lane = 0; lane < 32; ++lane)
        if (start + lane + 32 * k < end) {
          e.votes[row * 32 + lane] += odd;
          e.firsts[row * 32 + lane] += val[leader];
        }
    }
    for (int k = 0; start + 32 * k < end; ++k) {
      int big = 0;
      bool huge = false;
      for (int lane = 0; lane < 32; ++lane) {
        int j = start + lane + 32 * k;
        if (j < end && val[j] % 3 != 0) {
          big += val[j] > 50;
          huge |= val[j] > 90;
        }
      }
      for (int lane = 0; lane < 32; ++lane) {
        int j = start + lane + 32 * k;
        if (j < end && val[j] % 3 != 0)
          e.queued[row * 32 + lane] += big + (huge ? 1000 : 0);
      }
    }
    // Outer iteration ka holds lanes 0..15 with start + lane + 16 ka < end;
    // inner iteration kb of it, those of them with a + 40 kb < end.
    for (int ka = 0; start + 16 * ka < end; ++ka)
      for (int kb = 0; start + 16 * ka + 40 * kb < end; ++kb) {
        int count = 0;
        for (int lane = 0; lane < 16; ++lane) {
          int b = start + lane + 16 * ka + 40 * kb;
          if (b < end)
            count += (val[b] & 2) != 0;
        }
        for (int lane = 0; lane < 16; ++lane)
          if (start + lane + 16 * ka + 40 * kb < end)
            e.nested[row * 32 + lane] += count;
      }
  }
  return e;
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  int n = s.n;
  harness::require(n <= s.numBlocks * s.blockSize / 32,
                   "n rows need n warps");
  harness::require(s.blockSize % 32 == 0, "one warp per row: whole warps");
  harness::Rng rng(s.seed);
  std::vector<int> lengths = harness::randomInts(rng, n, 0, 3 * 32 + 7);
  std::vector<int> rowPtr(n + 1, 0);
  for (int r = 0; r < n; ++r)
    rowPtr[r + 1] = rowPtr[r] + lengths[r];
  std::vector<int> val =
      harness::randomInts(rng, std::max(rowPtr[n], 1), 0, 100);
  Expected want = reference(rowPtr, val, n);
  harness::DeviceArray<int> dRowPtr(rowPtr), dVal(val), dVotes(n * 32),
      dFirsts(n * 32), dQueued(n * 32), dNested(n * 32);
  return harness::run(s,
                      {harness::expect("votes", dVotes, want.votes),
                       harness::expect("firsts", dFirsts, want.firsts),
                       harness::expect("queued", dQueued, want.queued),
                       harness::expect("nested", dNested, want.nested)},
                      [&] {
                        rows<<<s.numBlocks, s.blockSize>>>(
                            dRowPtr.get(), dVal.get(), dVotes.get(),
                            dFirsts.get(), dQueued.get(), dNested.get(), n);
                      });
}
