#include <cub/cub.cuh>
#include <cooperative_groups.h>
#include <cuda_fp16.h>
namespace cg = cooperative_groups;

__global__ void modern(const int *in, int *out) {
  typedef cub::WarpReduce<int> WarpReduce;
  __shared__ typename WarpReduce::TempStorage temp;
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
  int v = WarpReduce(temp).Sum(in[threadIdx.x]);
  out[threadIdx.x] = v + tile.any(v) + tile.shfl_down(v, 1);
}

__global__ void legacy(int *p) {
  int v = p[threadIdx.x];
#if __CUDA_ARCH__ == 700
  v += __shfl_xor(v, 1);
#elif __CUDA_ARCH__ == 900
  v += __shfl_down(v, 1);
#endif
  p[threadIdx.x] = v;
}
