// Soundness: barriers that synchronise only part of the warp, then a read of
// the other part's element. Each block of 32 threads runs one radix-2
// butterfly over its 32 values in shared memory: lane l < 16 gets
// s[l] + s[l + 16], lane l >= 16 gets s[l - 16] - s[l], so each lane reads
// its partner s[lane ^ 16], in the other half of the warp. halfSync
// synchronises each half separately,
// `if (lane < 16) __syncwarp(0x0000ffff); else __syncwarp(0xffff0000);`,
// and tileSync does the same with cooperative groups, a
// thread_block_tile<16> and tile.sync(). Neither barrier orders a lane's
// read of s[lane ^ 16] after the other half's store: the original races
// (racecheck hazards are expected for the original only; it gives the right
// answer in practice, as the warp reconverges before the read).
//
// warpfix takes a __syncwarp(mask) or tile.sync() to order only the lanes of
// its group, finds that the partner's store and the read are in different
// groups, and inserts __syncwarp(0xffffffff) before the read, where every
// lane of the warp arrives (blocks of 32, one warp, all lanes in both
// kernels). The rewritten program must be racecheck-clean.
//
// <cooperative_groups.h> does not compile after legacy_emulation.cuh, whose
// __any macro meets libcu++'s struct __any, so this file hides the macro
// around the include (the original is built with the header; no legacy
// intrinsic is used here).
//
// What the code computed: the butterfly of each block's 32 values (0 past n).
//
// Shapes: blocks of 32 threads, the kernels' launch; any n.
//
// @shapes 32x100:3200 32x157:5000 32x40:1000 32x3:70
// @sanitize 32x2:64
// @time 32x32768:1048576
#pragma push_macro("__any")
#undef __any
#include <cooperative_groups.h>
#pragma pop_macro("__any")

#include "../../harness.h"

namespace cg = cooperative_groups;

__device__ int butterfly(int mine, int partner, int lane) {
  return lane < 16 ? mine + partner : partner - mine;
}

__global__ void halfSync(const int *in, int *out, int n) {
  __shared__ int s[32];
  int lane = threadIdx.x;
  int i = blockIdx.x * 32 + lane;
  s[lane] = i < n ? in[i] : 0;
  if (lane < 16)
    __syncwarp(0x0000ffff);
  else
    __syncwarp(0xffff0000);
  int partner = s[lane ^ 16];
  if (i < n)
    out[i] = butterfly(s[lane], partner, lane);
}

__global__ void tileSync(const int *in, int *out, int n) {
  __shared__ int s[32];
  cg::thread_block_tile<16> tile = cg::tiled_partition<16>(cg::this_thread_block());
  int lane = threadIdx.x;
  int i = blockIdx.x * 32 + lane;
  s[lane] = i < n ? in[i] : 0;
  tile.sync();
  int partner = s[lane ^ 16];
  if (i < n)
    out[i] = butterfly(s[lane], partner, lane);
}

static std::vector<int> reference(const std::vector<int> &in) {
  int n = (int)in.size();
  std::vector<int> out(n);
  for (int i = 0; i < n; ++i) {
    int lane = i % 32, j = i - lane + (lane ^ 16);
    int partner = j < n ? in[j] : 0;
    out[i] = lane < 16 ? in[i] + partner : partner - in[i];
  }
  return out;
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require(s.blockSize == 32, "the kernels are launched with blocks of one warp");
  harness::require((long long)s.numBlocks * 32 >= s.n, "the grid must cover n");
  harness::Rng rng(s.seed);
  std::vector<int> in = harness::randomInts(rng, s.n, -1000, 1000);
  std::vector<int> want = reference(in);
  harness::DeviceArray<int> dIn(in), dHalf(s.n), dTile(s.n);
  return harness::run(s,
                      {harness::expect("halfSync", dHalf, want),
                       harness::expect("tileSync", dTile, want)},
                      [&] {
                        halfSync<<<s.numBlocks, 32>>>(dIn.get(), dHalf.get(), s.n);
                        tileSync<<<s.numBlocks, 32>>>(dIn.get(), dTile.get(), s.n);
                      });
}
