// Red team, block shapes: 2-D blocks whose size comes from the command line
// (the harness's blockSize), so no launch can be evaluated and warpfix
// models blocks of any shape: 1-D 64 and 1024, and, since the kernels name
// threadIdx.y, rows of 32 and 64 (32x2, 64x2, 32x32, 64x16), which its note
// says "stand for any row width that is a multiple of 32 or divides 32".
// The launch is dim3(blockSize / 4, 4): rows of 16, 32, 64 and 128 threads,
// all inside that claim.
//
//  - quarterRow: s[y][x] = v, then reads s[y][x ^ (blockDim.x / 4)], the
//    butterfly partner a quarter row away. The kernel serves rows of up to
//    128 threads (its tile is 128 wide) and leaves wider blocks at once.
//    Rows of 16: partner x ^ 4; 32: x ^ 8; 64: x ^ 16 -- all inside the
//    thread's warp. Rows of 128: x ^ 32, always in the OTHER warp of the
//    row half. In every modelled shape the pair meets inside warps only
//    (1-D 1024 returns at the guard), so warpfix fixes it.
//    warpfix: fixed, __syncwarp(0xffffffff) after the store (0 remain).
//    Verdict: WRONG for dim3(128, 4) (blockSize 512): thread 0 (x=0, y=0,
//    warp 0) reads s[0][32], written by thread 32 (x=32, y=0, warp 1);
//    thread 160 (x=32, y=1, warp 5) reads s[1][0] of thread 128 (warp 4):
//    a race between warps that a __syncwarp() does not order, in a width
//    (128, a multiple of 32) that the note says is covered. The sanitize
//    shape is 512x2, dim3(128, 4): racecheck should report it.
//  - rowTree: the classic row sum in a 2-D tile, `if (x < k) tile[y][x] +=
//    tile[y][x + k]` for k = 16..1 (volatile), rows of at least 32 threads
//    summing their first 32 elements. Within a warp in every shape in use.
//    warpfix: fixed as listing 8. Verdict: correct (checked by hand: lanes
//    x < 32 of each row form one warp for widths 32, 64, 128).
//
// What the legacy code computed: see the CPU reference (for quarterRow,
// assuming the partner's store came first, which is what the code means).
//
// After the red team: the note's claim was false, and is gone. A kernel
// that names threadIdx.y, with a launch warpfix cannot see, is no longer
// fixed: every finding here says "warpfix cannot see the block size of
// every launch of this kernel, which names threadIdx.y or z: whether
// threads of different warps meet here depends on the width of the block's
// rows". Both kernels run unfixed (the rewritten program is the original
// with the legacy emulation); racecheck's hazards are then expected.
//
// @shapes 512x20:10240 256x20:5120 128x20:2560 64x20:1280
// @sanitize 512x2:1024
// @time 256x4096:1048576
#include "../../harness.h"

constexpr int kMaxRow = 128;

__global__ void quarterRow(const int *in, int *out, int n) {
  __shared__ int s[8][kMaxRow];
  if (blockDim.x > kMaxRow || blockDim.y > 8)
    return;
  int x = threadIdx.x, y = threadIdx.y;
  int i = (blockIdx.x * blockDim.y + y) * blockDim.x + x;
  s[y][x] = i < n ? in[i] : 0;
  int r = s[y][x ^ (blockDim.x / 4)];
  if (i < n)
    out[i] = 5 * r - in[i];
}

__global__ void rowTree(const int *in, int *out, int n) {
  __shared__ volatile int tile[8][kMaxRow];
  if (blockDim.x > kMaxRow || blockDim.y > 8)
    return;
  int x = threadIdx.x, y = threadIdx.y;
  int row = blockIdx.x * blockDim.y + y;
  int i = row * blockDim.x + x;
  tile[y][x] = i < n ? in[i] : 0;
  if (x < 16) tile[y][x] += tile[y][x + 16];
  if (x < 8) tile[y][x] += tile[y][x + 8];
  if (x < 4) tile[y][x] += tile[y][x + 4];
  if (x < 2) tile[y][x] += tile[y][x + 2];
  if (x < 1) tile[y][x] += tile[y][x + 1];
  if (x == 0 && i < n)
    out[row] = tile[y][0];
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require(s.blockSize % 4 == 0 && s.blockSize / 4 <= kMaxRow,
                   "four rows of at most 128 threads");
  int bx = s.blockSize / 4;
  harness::require((bx & (bx - 1)) == 0 && bx >= 16, "a row width of 16, 32, 64 or 128");
  harness::require((long long)s.blockSize * s.numBlocks >= s.n, "the grid must cover n");
  harness::require(s.n % bx == 0, "whole rows");
  harness::Rng rng(s.seed);
  std::vector<int> in = harness::randomInts(rng, s.n, -1000, 1000);
  auto value = [&](long long j) { return j < s.n ? in[j] : 0; };
  std::vector<int> wantQuarter(s.n);
  for (int i = 0; i < s.n; ++i) {
    int x = i % bx;
    wantQuarter[i] = 5 * value(i - x + (x ^ (bx / 4))) - in[i];
  }
  int rows = s.n / bx;
  bool treeDefined = bx >= 32;
  std::vector<int> wantTree(rows, harness::sentinel<int>());
  if (treeDefined)
    for (int r = 0; r < rows; ++r) {
      int sum = 0;
      for (int x = 0; x < 32; ++x)
        sum += in[r * bx + x];
      wantTree[r] = sum;
    }
  harness::DeviceArray<int> dIn(in), dQuarter(s.n), dTree(rows);
  std::vector<harness::Output> outputs = {harness::expect("quarterRow", dQuarter, wantQuarter)};
  if (treeDefined)
    outputs.push_back(harness::expect("rowTree", dTree, wantTree));
  return harness::run(s, outputs, [&] {
    dim3 block(bx, 4);
    quarterRow<<<s.numBlocks, block>>>(dIn.get(), dQuarter.get(), s.n);
    if (treeDefined)
      rowTree<<<s.numBlocks, block>>>(dIn.get(), dTree.get(), s.n);
  });
}
