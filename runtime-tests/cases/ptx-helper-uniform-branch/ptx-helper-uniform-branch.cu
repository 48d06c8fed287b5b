// A PTX shuffle in a helper, called from a warp-uniform branch: a block sum
// where each warp reduces with shflXor (a device function whose only job is
// a shfl.bfly.b32), lane 0 of each warp stores its sum in shared memory, and
// warp 0 (`if (warp == 0)`: whole warps, not divergence) reduces the warp
// sums with the same helper. The butterfly reads every lane, so blocks are
// whole warps.
//
// @shapes 128x40:5120 64x100:6400 1024x3:3072 32x50:1600
// @sanitize 64x2:128
// @time 256x4096:1048576
#include "../../harness.h"

__device__ int shflXor(int v, int laneMask) {
  int r;
  asm volatile("shfl.bfly.b32 %0, %1, %2, 0x1f;" : "=r"(r) : "r"(v), "r"(laneMask));
  return r;
}

__device__ int warpSum(int v) {
  for (int m = 16; m > 0; m /= 2)
    v += shflXor(v, m);
  return v;
}

__global__ void blockSums(const int *in, int *out, int n) {
  __shared__ int warpTotals[32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  int v = warpSum(i < n ? in[i] : 0);
  if (lane == 0)
    warpTotals[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < blockDim.x / 32 ? warpTotals[lane] : 0;
    v = warpSum(v);
    if (lane == 0)
      out[blockIdx.x] = v;
  }
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require(s.blockSize % 32 == 0, "the butterfly reads all 32 lanes of a warp");
  harness::require((long long)s.blockSize * s.numBlocks >= s.n, "the grid must cover n");
  harness::Rng rng(s.seed);
  std::vector<int> in = harness::randomInts(rng, s.n, -1000, 1000);
  std::vector<int> want(s.numBlocks, 0);
  for (int i = 0; i < s.n; ++i)
    want[i / s.blockSize] += in[i];
  harness::DeviceArray<int> dIn(in), dOut(s.numBlocks);
  return harness::run(s, {harness::expect("blockSums", dOut, want)}, [&] {
    blockSums<<<s.numBlocks, s.blockSize>>>(dIn.get(), dOut.get(), s.n);
  });
}
