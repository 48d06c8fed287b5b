// Two ways real code makes a branch warp-uniform (issue 15, item 8):
// - rowSumsFields is launched with a block size built field by field, as the
//   SDK samples and popsift write it (`dim3 block; block.x = 32;
//   block.y = 8;`): each warp is one row, so `if (row >= rows) return;`
//   takes whole warps away and the legacy __shfl_down gets the full mask.
// - rowSumsByExtent branches on `extent[0] >= 32`, an accessor of a by-value
//   kernel parameter, as mshadow's reductions branch on `eshape[0]`: the same
//   in every lane, so the warp sum under it gets the full mask.
// The rewrite must compute the same row sums as the legacy code.
//
// The harness's block size is the threads of a block (256); the launches
// fix the shape. `n` counts rows of 32 values.
//
// @shapes 256x40:320 256x9:70 256x1:3
// @sanitize 256x2:16
// @time 256x4096:32768 max-n=16777216
#include "../../harness.h"

__global__ void rowSumsFields(const int *in, int *sums, int rows) {
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

struct Extent {
  int dims_[2];
  __device__ int &operator[](int i) { return dims_[i]; }
};

__global__ void rowSumsByExtent(const int *in, int *sums, Extent extent) {
  int lane = threadIdx.x % 32;
  int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int v = row < extent[1] ? in[row * 32 + lane] : 0;
  if (extent[0] >= 32)
    for (int offset = 16; offset > 0; offset /= 2)
      v += __shfl_xor(v, offset);
  if (lane == 0 && row < extent[1])
    sums[row] = v;
}

static std::vector<int> rowSums(const std::vector<int> &in, int rows) {
  std::vector<int> sums(rows, 0);
  for (int r = 0; r < rows; ++r)
    for (int x = 0; x < 32; ++x)
      sums[r] += in[r * 32 + x];
  return sums;
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require(s.blockSize == 256, "the kernels' launches fix 256 threads");
  int rows = s.n;
  harness::require(rows <= s.numBlocks * 8, "one block covers 8 rows");
  harness::Rng rng(s.seed);
  std::vector<int> in = harness::randomInts(rng, rows * 32, -1000, 1000);
  harness::DeviceArray<int> dIn(in), dFields(rows), dExtent(rows);
  int blocks = (rows + 7) / 8;
  Extent extent{{32, rows}};
  return harness::run(s,
                      {harness::expect("fields", dFields, rowSums(in, rows)),
                       harness::expect("extent", dExtent, rowSums(in, rows))},
                      [&] {
                        dim3 block;
                        block.x = 32;
                        block.y = 8;
                        rowSumsFields<<<blocks, block>>>(dIn.get(), dFields.get(), rows);
                        rowSumsByExtent<<<blocks, 256>>>(dIn.get(), dExtent.get(), extent);
                      });
}
