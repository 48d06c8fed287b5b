// "Tutorial de CUDA - Warp", first reduction: each warp sums its 32 floats in shared memory
// with a loop whose trip count depends on the lane,
//   for (threshold = 16; idx < threshold; threshold >>= 1) ...
// and no synchronisation at all: lane idx reads shared_mem[idx + threshold],
// written by another lane in the previous trip. It relies on lockstep; on an
// H100 racecheck reports a warp-level RAW hazard for it.
// No legacy intrinsic here: this case is for the shared-memory race check.
//
// The seed has one warp and no `volatile`; this version gives each warp its
// own row and declares the rows volatile, as pre-Volta code had to, so that
// the compiler keeps every load and store. The floats hold small integers,
// so the sum is exact in any order.
//
// Shapes: any block size: the block zeroes every row first, so the slots of
// lanes a partial warp does not have read as 0.
//
// @shapes 128x40:5000 48x100:4700 100x37:3650 1024x3:3000
// @sanitize 48x2:90
// @time 256x4096:1048576
#include "../../harness.h"

constexpr int kMaxWarps = 32;

__global__ void sum(const float *a, float *sums, int n) {
  __shared__ volatile float shared_mem[kMaxWarps][32];
  for (int k = threadIdx.x; k < kMaxWarps * 32; k += blockDim.x)
    shared_mem[k / 32][k % 32] = 0.0f;
  __syncthreads();

  int warp = threadIdx.x / 32;
  int idx = threadIdx.x % 32;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  shared_mem[warp][idx] = i < n ? a[i] : 0.0f;
  for (int threshold = 16; idx < threshold; threshold >>= 1) {
    shared_mem[warp][idx] += shared_mem[warp][idx + threshold];
  }
  if (idx == 0) {
    sums[blockIdx.x * ((blockDim.x + 31) / 32) + warp] = shared_mem[warp][0];
  }
}

static std::vector<float> reference(const std::vector<float> &a, const harness::Shape &s) {
  int warps = harness::warpsPerBlock(s.blockSize);
  std::vector<float> sums(s.numBlocks * warps, 0.0f);
  for (int b = 0; b < s.numBlocks; ++b)
    for (int t = 0; t < s.blockSize; ++t) {
      int i = b * s.blockSize + t;
      sums[b * warps + t / 32] += i < s.n ? a[i] : 0.0f;
    }
  return sums;
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::Rng rng(s.seed);
  std::vector<float> a(s.n);
  for (float &x : a)
    x = (float)rng.range(-100, 100);
  harness::DeviceArray<float> dA(a), dSums(s.numBlocks * harness::warpsPerBlock(s.blockSize));
  return harness::run(s, {harness::expect("sums", dSums, reference(a, s))},
                      [&] { sum<<<s.numBlocks, s.blockSize>>>(dA.get(), dSums.get(), s.n); });
}
