// Issue 13, pattern 4: the whole-warp assumption where the file's own launch
// contradicts it. Rows of 16 values are summed with a width-16 __shfl_xor
// butterfly under `if (gid < N)`. N is a multiple of 32, so in blocks of
// whole warps the guard is warp-uniform and the full mask right: rowSumsWide
// is launched below with blocks of 64 and keeps it. But rowSums is launched
// with blocks of 48 threads (three rows per block), so a warp can straddle
// N: the block that starts 16 elements below N has lanes 0 to 15 of its
// first warp in range and lanes 16 to 31 out. A full mask there names lanes
// that never arrive.
//
// What the legacy code computed: every row lies in one 16-lane segment of a
// warp, and N and both block sizes are multiples of 16, so the lanes that
// enter are whole segments; each lane's butterfly stays in its own segment,
// and each lane gets its row's sum.
//
// Shapes: blocks of 48 threads (the launch says 48) and n = N = 1696, for
// which the block at 1680 straddles N in its first warp; more blocks than N
// needs leave whole blocks out of range. rowSumsWide's grid is its own.
//
// @shapes 48x36:1696 48x37:1696 48x100:1696 48x1000:1696
// @sanitize 48x36:1696
// @time 48x36:1696 grow=none
#include "../../harness.h"

#define N 1696

__global__ void rowSums(const int *in, int *rowSum) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  if (gid < N) { // N is a multiple of 32
    int v = in[gid];
    for (int mask = 8; mask > 0; mask >>= 1)
      v += __shfl_xor(v, mask, 16);
    rowSum[gid] = v;
  }
}

__global__ void rowSumsWide(const int *in, int *rowSum) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  if (gid < N) {
    int v = in[gid];
    for (int mask = 8; mask > 0; mask >>= 1)
      v += __shfl_xor(v, mask, 16);
    rowSum[gid] = v;
  }
}

static std::vector<int> reference(const std::vector<int> &in) {
  std::vector<int> out(N);
  for (int row = 0; row * 16 < N; ++row) {
    int sum = 0;
    for (int k = 0; k < 16; ++k)
      sum += in[row * 16 + k];
    for (int k = 0; k < 16; ++k)
      out[row * 16 + k] = sum;
  }
  return out;
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require(s.blockSize == 48, "rowSums is launched with blocks of 48 threads");
  harness::require(s.n == N, "n is the kernels' N");
  harness::require(s.numBlocks * 48 >= N, "the grid must cover N");
  harness::Rng rng(s.seed);
  std::vector<int> in = harness::randomInts(rng, N, -1000, 1000);
  std::vector<int> want = reference(in);
  harness::DeviceArray<int> dIn(in), dOut(N), dOutWide(N);
  return harness::run(s,
                      {harness::expect("rowSum", dOut, want),
                       harness::expect("rowSumWide", dOutWide, want)},
                      [&] {
                        rowSums<<<s.numBlocks, 48>>>(dIn.get(), dOut.get());
                        rowSumsWide<<<(N + 63) / 64, 64>>>(dIn.get(), dOutWide.get());
                      });
}
