// Two-dimensional blocks (issue 15, item 8d). Warps are cut from the linear
// thread index x + y * blockDim.x (CUDA C++ Programming Guide, SIMT Architecture), and each kernel's only launch
// gives its block shape:
// - rowSums16, 16 x 16 blocks: a warp holds two 16-wide rows of the tile,
//   and the row's tree sum in shared memory is warp-synchronous: lane x
//   reads tile[y][x + 4] while lane x + 4 wrote it one statement before.
//   The tile is volatile, as legacy warp-synchronous code had to make it: on
//   an H100 a plain array gave wrong sums in every run of the original, the
//   compiler keeping neighbours' elements in registers.
//   warpfix models the rows, reports the chain and splits it with
//   __syncwarp() (Using CUDA Warp-Level Primitives, listing 8).
// - rowSums32, 32 x 8 blocks: each warp is one row, so `if (row >= rows)
//   return;` takes whole warps away and the legacy __shfl_down gets the full
//   mask.
//
// The harness's block size is the threads of a block (256); the launches
// fix the shape. `n` counts rows of the 16-wide input; the 32-wide input has
// as many rows. Partial grids leave rows out, never part of a row.
//
// @shapes 256x40:640 256x9:130 256x1:3
// @sanitize 256x2:20
// @time 256x4096:65536 max-n=16777216
#include "../../harness.h"

__global__ void rowSums16(const int *in, int *sums, int rows) {
  __shared__ volatile int tile[16][17];
  int x = threadIdx.x, y = threadIdx.y;
  int row = blockIdx.x * 16 + y;
  tile[y][x] = row < rows ? in[row * 16 + x] : 0;
  __syncthreads();
  if (x < 8) tile[y][x] += tile[y][x + 8];
  if (x < 4) tile[y][x] += tile[y][x + 4];
  if (x < 2) tile[y][x] += tile[y][x + 2];
  if (x < 1) tile[y][x] += tile[y][x + 1];
  if (x == 0 && row < rows)
    sums[row] = tile[y][0];
}

__global__ void rowSums32(const int *in, int *sums, int rows) {
  int x = threadIdx.x;
  int row = blockIdx.x * 8 + threadIdx.y;
  if (row >= rows)
    return;
  int v = in[row * 32 + x];
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down(v, offset);
  if (x == 0)
    sums[row] = v;
}

static std::vector<int> rowSums(const std::vector<int> &in, int rows, int width) {
  std::vector<int> sums(rows, 0);
  for (int r = 0; r < rows; ++r)
    for (int x = 0; x < width; ++x)
      sums[r] += in[r * width + x];
  return sums;
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require(s.blockSize == 256, "the kernels' launches fix 256 threads");
  int rows = s.n;
  harness::require(rows <= s.numBlocks * 16, "one 16 x 16 block covers 16 rows");
  harness::Rng rng(s.seed);
  std::vector<int> in16 = harness::randomInts(rng, rows * 16, -1000, 1000);
  std::vector<int> in32 = harness::randomInts(rng, rows * 32, -1000, 1000);
  harness::DeviceArray<int> dIn16(in16), dIn32(in32), dSums16(rows), dSums32(rows);
  int blocks32 = (rows + 7) / 8;
  return harness::run(s,
                      {harness::expect("sums16", dSums16, rowSums(in16, rows, 16)),
                       harness::expect("sums32", dSums32, rowSums(in32, rows, 32))},
                      [&] {
                        rowSums16<<<s.numBlocks, dim3(16, 16)>>>(dIn16.get(), dSums16.get(), rows);
                        rowSums32<<<blocks32, dim3(32, 8)>>>(dIn32.get(), dSums32.get(), rows);
                      });
}
