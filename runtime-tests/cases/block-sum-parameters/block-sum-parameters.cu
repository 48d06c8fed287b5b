// The canonical block reduction of issue 15, item 1: a warp sum in a helper,
// called by every lane, then again under `if (warpId == 0)`, where warpId is
// a parameter that every call site passes as threadIdx.x / 32. That branch is
// warp-uniform (whole-warp blocks), so the full mask is exact in both calls,
// and the rewrite must compute the same block sums as the legacy code.
//
// Shapes: block sizes are multiples of 32, at most 1024 (32 partials).
//
// @shapes 256x40:10000 64x100:6350 1024x12:12288 96x50:4800
// @sanitize 256x2:500
// @time 256x4096:1048576
#include "../../harness.h"

__device__ float warpSum(float v) {
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down(v, offset);
  return v;
}

__device__ float blockSum(float v, int warpId, int lane, float *partials) {
  v = warpSum(v);
  if (lane == 0)
    partials[warpId] = v;
  __syncthreads();
  v = threadIdx.x < blockDim.x / 32 ? partials[lane] : 0.0f;
  if (warpId == 0)
    v = warpSum(v);
  return v;
}

__global__ void block_sums(const float *a, float *sums, int n) {
  __shared__ float partials[32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = i < n ? a[i] : 0.0f;
  float total = blockSum(x, threadIdx.x / 32, threadIdx.x % 32, partials);
  if (threadIdx.x == 0)
    sums[blockIdx.x] = total;
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
  harness::require(s.blockSize % 32 == 0 && s.blockSize <= 1024,
                   "whole warps, at most 32 of them");
  harness::Rng rng(s.seed);
  std::vector<float> a(s.n);
  for (float &x : a)
    x = (float)rng.range(-100, 100);
  harness::DeviceArray<float> dA(a), dSums(s.numBlocks);
  return harness::run(s, {harness::expect("sums", dSums, reference(a, s))}, [&] {
    block_sums<<<s.numBlocks, s.blockSize>>>(dA.get(), dSums.get(), s.n);
  });
}
