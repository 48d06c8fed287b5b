// Issue 15, item 4b: __activemask() stored, then used as a member mask, as
// TVM writes its warp reductions: `mask[0] = __activemask();`, then a chain
// of `__shfl_down_sync(mask[0], ...)` steps and a `__shfl_sync(mask[0], ..., 0)`
// broadcast. The kernel is uniform: every lane arrives, so the rewrite
// writes the full mask where the value is taken (`mask[0] = 0xffffffff;`).
// The legacy program relies on the warp being converged at that point, which
// it is at the start of a uniform kernel on current GPUs; the rewrite no
// longer does. Both must give the warp's sum and maximum, broadcast to every
// lane, bit for bit (integer-valued floats sum exactly in any order).
//
// Shapes: whole warps only, and n equal to the number of threads: a shuffle
// tree reads every lane of the warp.
//
// @shapes 32x64:2048 128x40:5120 256x20:5120 1024x3:3072
// @sanitize 64x2:128
// @time 256x4096:1048576
#include "../../harness.h"

extern "C" __global__ void __launch_bounds__(1024)
    default_function_kernel(float *__restrict__ sum_out, float *__restrict__ max_out,
                            const float *__restrict__ data) {
  float red_buf0[1];
  float red_buf1[1];
  unsigned mask[1];
  float t0[1];
  float t1[1];
  red_buf0[0] = data[blockIdx.x * blockDim.x + threadIdx.x];
  red_buf1[0] = red_buf0[0];
  mask[0] = __activemask();
  t0[0] = __shfl_down_sync(mask[0], red_buf0[0], 16, 32);
  red_buf0[0] = red_buf0[0] + t0[0];
  t1[0] = __shfl_down_sync(mask[0], red_buf1[0], 16, 32);
  red_buf1[0] = max(red_buf1[0], t1[0]);
  t0[0] = __shfl_down_sync(mask[0], red_buf0[0], 8, 32);
  red_buf0[0] = red_buf0[0] + t0[0];
  t1[0] = __shfl_down_sync(mask[0], red_buf1[0], 8, 32);
  red_buf1[0] = max(red_buf1[0], t1[0]);
  t0[0] = __shfl_down_sync(mask[0], red_buf0[0], 4, 32);
  red_buf0[0] = red_buf0[0] + t0[0];
  t1[0] = __shfl_down_sync(mask[0], red_buf1[0], 4, 32);
  red_buf1[0] = max(red_buf1[0], t1[0]);
  t0[0] = __shfl_down_sync(mask[0], red_buf0[0], 2, 32);
  red_buf0[0] = red_buf0[0] + t0[0];
  t1[0] = __shfl_down_sync(mask[0], red_buf1[0], 2, 32);
  red_buf1[0] = max(red_buf1[0], t1[0]);
  t0[0] = __shfl_down_sync(mask[0], red_buf0[0], 1, 32);
  red_buf0[0] = red_buf0[0] + t0[0];
  t1[0] = __shfl_down_sync(mask[0], red_buf1[0], 1, 32);
  red_buf1[0] = max(red_buf1[0], t1[0]);
  red_buf0[0] = __shfl_sync(mask[0], red_buf0[0], 0, 32);
  red_buf1[0] = __shfl_sync(mask[0], red_buf1[0], 0, 32);
  sum_out[blockIdx.x * blockDim.x + threadIdx.x] = red_buf0[0];
  max_out[blockIdx.x * blockDim.x + threadIdx.x] = red_buf1[0];
}

int main(int argc, char **argv) {
  harness::Shape s = harness::parseShape(argc, argv);
  harness::require(s.blockSize % 32 == 0, "whole warps");
  harness::require(s.n == s.blockSize * s.numBlocks, "one element per thread");
  harness::Rng rng(s.seed);
  std::vector<float> data(s.n);
  for (float &x : data)
    x = (float)rng.range(-100, 100);
  std::vector<float> sums(s.n), maxima(s.n);
  for (int w = 0; w < s.n / 32; ++w) {
    float sum = 0, best = data[32 * w];
    for (int l = 0; l < 32; ++l) {
      sum += data[32 * w + l];
      best = std::max(best, data[32 * w + l]);
    }
    for (int l = 0; l < 32; ++l) {
      sums[32 * w + l] = sum;
      maxima[32 * w + l] = best;
    }
  }
  harness::DeviceArray<float> dData(data), dSums(s.n), dMaxima(s.n);
  return harness::run(s,
                      {harness::expect("sums", dSums, sums),
                       harness::expect("maxima", dMaxima, maxima)},
                      [&] {
                        default_function_kernel<<<s.numBlocks, s.blockSize>>>(
                            dSums.get(), dMaxima.get(), dData.get());
                      });
}
