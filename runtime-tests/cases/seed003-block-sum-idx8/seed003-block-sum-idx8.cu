// "Tutorial de CUDA - Warp", third reduction, as it read before CUDA 9: warp sums with the
// legacy __shfl_down, one partial per warp in shared memory, then the first
// lanes add the partials inside `if (idx <= 8)`. The seed's CUDA 9 version
// passes the full mask there, which names lanes 9 to 31 that never arrive;
// the legacy calls ran over lanes 0 to 8 only, which is what a correct
// rewrite must keep. Lanes 5 to 8 read lanes 9 to 12, which are inactive, but
// their results never reach lane 0.
//
// The seed reads shared_mem[8] of an 8-slot array; here the array has 9 slots,
// all zeroed first, so that a block with fewer than 8 warps adds zeros.
// The floats hold small integers, so the sum is exact in any order.
//
// Shapes: block sizes are multiples of 32 (the warp tree reads all 32 lanes)
// and at most 256 (the second stage adds 8 partials).
//
// @shapes 256x40:10000 64x100:6350 128x30:3840 96x50:4800
// @sanitize 256x2:500
// @time 256x4096:1048576
#include "../../harness.h"

__global__ void sum_synchronized(const float *a, float *sums, int n) {
  int idx = threadIdx.x;
  int i = blockIdx.x * blockDim.x + idx;
  float val = i < n ? a[i] : 0.0f;
  __shared__ float shared_mem[9];
  if (idx < 9) {
    shared_mem[idx] = 0.0f;
  }
  __syncthreads();
  for (int offset = 16; offset > 0; offset /= 2) {
    val += __shfl_down(val, offset);
  }
  if (idx % 32 == 0) {
    shared_mem[idx >> 5] = val;
  }
  __syncthreads();
  if (idx <= 8) {
    val = shared_mem[idx];
    val += __shfl_down(val, 4);
    val += __shfl_down(val, 2);
    val += __shfl_down(val, 1);
    if (idx == 0) {
      sums[blockIdx.x] = val;
    }
  }
}

static std::vector<float> reference(const std::vector<float> &a, const harness::Shape &s) {
  std::vector<float> sums(s.numBlocks, 0.0f);
  for (int b = 0; b < s.numBlocks; ++b)
    for (int i = b * s.blockSize; i < (b + 1) * s.blockSize; ++i)
      sums[b] += i < s.n ? a[i] : 0.0f;
  return sums;
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require(s.blockSize % 32 == 0 && s.blockSize <= 256,
                   "whole warps (the tree reads all 32 lanes), at most 8 of them");
  harness::Rng rng(s.seed);
  std::vector<float> a(s.n);
  for (float &x : a)
    x = (float)rng.range(-100, 100);
  harness::DeviceArray<float> dA(a), dSums(s.numBlocks);
  return harness::run(s, {harness::expect("sums", dSums, reference(a, s))}, [&] {
    sum_synchronized<<<s.numBlocks, s.blockSize>>>(dA.get(), dSums.get(), s.n);
  });
}
