// What warpfix does since: a reference (or a pointer that keeps its first
// value) is resolved where it was declared, with the values its
// initializer's variables had there, so `mine` is tile[0][t] in every
// iteration. The tree race inside the loop is reported, without a fix (its
// guard changes with the loop); the stores before the loop are fixed. The
// remaining hazards racecheck sees are those reported ones.
//
// Red team, local references to shared structs: a reference is bound once,
// but warpfix resolves it by evaluating its initializer again at each use,
// with the values that the variables in it have at that use. When a loop
// reuses one of those variables as its counter, each iteration's model of
// the reference names another element.
//
// warpSums: the warp-synchronous tree reduction of (sum, count) pairs, legacy
// style: `volatile`, no barriers, lockstep assumed. One variable `k` is
// first the row of the tile that holds the partial sums (0), where `mine`
// is bound, then the tree's offset (`for (k = 16; k > 0; k >>= 1)`). `mine` is tile[0][t] throughout,
// but warpfix takes it for tile[k][t] in each iteration (rows 16, 8, 4, 2,
// 1, which nobody reads), so it sees no race inside the loop. It reports the
// stores before the loop (they meet the loop's reads of tile[0][t + k]) and
// fixes them with one __syncwarp() before the loop: "fixed; 0 remain". The
// tree's own race (lane l + k writes its row-0 slot in one iteration, lane l
// reads it in the next) stays in the rewritten program.
//
// The same loop with `mine` spelt `vt[0][t]` is reported, and refused (the
// guard's lanes change from one iteration to the next): the miss is the
// reference's.
//
// What the legacy code computed: lockstep, lane 0 of each warp ends with the
// sum and the count of the warp's in-range values (threads past n add 0);
// 16 zeroed slots past the block serve the reads of a partial warp.
//
// Expected on the GPU: outputs match (a converged warp runs the tree as in
// lockstep); racecheck reports hazards between the loop's `mine.sum +=`
// store and its read of tile[0][t + k] in the rewritten program, where
// warpfix reports no race left.
//
// @shapes 128x40:5000 48x100:4700 100x37:3650 1024x3:3000
// @sanitize 48x2:90
// @time 256x4096:1048576
#include "../../harness.h"

constexpr int kMaxBlock = 1024;
constexpr int kRow = kMaxBlock + 16;

struct Partial {
  int sum;
  int count;
};

__global__ void warpSums(const int *in, int *sums, int *counts, int n) {
  __shared__ Partial tile[2][kRow];
  for (int z = threadIdx.x; z < kRow; z += blockDim.x) {
    tile[0][z].sum = 0;
    tile[0][z].count = 0;
  }
  __syncthreads();
  volatile Partial(*vt)[kRow] = tile;
  int t = threadIdx.x;
  int lane = t % 32;
  int i = blockIdx.x * blockDim.x + t;
  vt[0][t].sum = i < n ? in[i] : 0;
  vt[0][t].count = i < n ? 1 : 0;
  int k = 0; // the row of the partial sums, then the tree's offset
  volatile Partial &mine = vt[k][t];
  for (k = 16; k > 0; k >>= 1) {
    if (lane < k) {
      mine.sum += vt[0][t + k].sum;
      mine.count += vt[0][t + k].count;
    }
  }
  if (lane == 0) {
    int w = blockIdx.x * ((blockDim.x + 31) / 32) + threadIdx.x / 32;
    sums[w] = mine.sum;
    counts[w] = mine.count;
  }
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require((long long)s.blockSize * s.numBlocks >= s.n, "the grid must cover n");
  harness::require(s.blockSize <= kMaxBlock, "one slot per thread");
  harness::Rng rng(s.seed);
  std::vector<int> in = harness::randomInts(rng, s.n, -1000, 1000);
  int warps = harness::warpsPerBlock(s.blockSize);
  std::vector<int> sums(s.numBlocks * warps), counts(s.numBlocks * warps);
  for (int b = 0; b < s.numBlocks; ++b)
    for (int w = 0; w < warps; ++w) {
      int sum = 0, count = 0;
      for (int l = 0; l < harness::lanesInWarp(s.blockSize, w); ++l) {
        int i = b * s.blockSize + w * 32 + l;
        sum += i < s.n ? in[i] : 0;
        count += i < s.n ? 1 : 0;
      }
      sums[b * warps + w] = sum;
      counts[b * warps + w] = count;
    }
  harness::DeviceArray<int> dIn(in), dSums(sums.size()), dCounts(counts.size());
  return harness::run(s,
                      {harness::expect("warpSums.sum", dSums, sums),
                       harness::expect("warpSums.count", dCounts, counts)},
                      [&] {
                        warpSums<<<s.numBlocks, s.blockSize>>>(dIn.get(), dSums.get(),
                                                               dCounts.get(), s.n);
                      });
}
