// "Tutorial de CUDA - Warp", second reduction, as it read before CUDA 9: the warp sums its
// floats with the legacy __shfl_down in a loop written in the kernel itself,
// and lane 0 writes the result. The seed has one warp; here every warp of the
// grid writes its sum. The floats hold small integers, so the sum is exact.
//
// Shapes: block sizes are multiples of 32: in a partial warp the tree reads
// lanes that do not exist. Elements past n are read as 0 instead.
//
// @shapes 128x40:5000 32x100:3190 256x12:3072 1024x3:2500
// @sanitize 64x2:100
// @time 256x4096:1048576
#include "../../harness.h"

__global__ void sum_synchronized(const float *a, float *sums, int n) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  float val = idx < n ? a[idx] : 0.0f;
  for (int offset = 16; offset > 0; offset /= 2) {
    val += __shfl_down(val, offset);
  }
  if (idx % 32 == 0) {
    sums[idx / 32] = val;
  }
}

static std::vector<float> reference(const std::vector<float> &a, const harness::Shape &s) {
  std::vector<float> sums(s.numBlocks * (s.blockSize / 32), 0.0f);
  for (size_t w = 0; w < sums.size(); ++w)
    for (int i = (int)w * 32; i < (int)w * 32 + 32; ++i)
      sums[w] += i < s.n ? a[i] : 0.0f;
  return sums;
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require(s.blockSize % 32 == 0, "the tree reads all 32 lanes of a warp");
  harness::Rng rng(s.seed);
  std::vector<float> a(s.n);
  for (float &x : a)
    x = (float)rng.range(-100, 100);
  harness::DeviceArray<float> dA(a), dSums(s.numBlocks * (s.blockSize / 32));
  return harness::run(s, {harness::expect("sums", dSums, reference(a, s))}, [&] {
    sum_synchronized<<<s.numBlocks, s.blockSize>>>(dA.get(), dSums.get(), s.n);
  });
}
