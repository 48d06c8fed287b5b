"""The shared headers of the generated code base, under include/: config.h,
util.cuh (device helpers, clean, included by most device TUs),
legacy_warp.cuh (a legacy warp reduction, included by some legacy TUs) and
host_util.h, as texts keyed by their path under the code base's root.
"""

CONFIG_H = """\
// Project-wide settings.
#pragma once
#ifndef BENCH_BLOCK
#define BENCH_BLOCK 256
#endif
#define FULL_MASK 0xffffffff
#define WARP_SIZE 32
#define CEIL_DIV(a, b) (((a) + (b) - 1) / (b))
"""

UTIL_CUH = """\
// Device helpers shared by most kernels. Nothing here is warp-synchronous.
#pragma once
#include "config.h"

namespace bench {

__device__ __forceinline__ unsigned global_index() {
  return blockIdx.x * blockDim.x + threadIdx.x;
}

__device__ __forceinline__ unsigned grid_stride() {
  return gridDim.x * blockDim.x;
}

__device__ __forceinline__ unsigned lane_id() { return threadIdx.x % WARP_SIZE; }

__device__ __forceinline__ unsigned warp_id() { return threadIdx.x / WARP_SIZE; }

template <typename T> __host__ __device__ T clamp(T v, T lo, T hi) {
  return v < lo ? lo : (v > hi ? hi : v);
}

template <typename T> __device__ T load_or(const T *p, unsigned i, unsigned n, T fallback) {
  return i < n ? __ldg(p + i) : fallback;
}

__device__ __forceinline__ float fast_sigmoid(float x) {
  return 1.0f / (1.0f + __expf(-x));
}

struct Range {
  unsigned begin, end;
  __host__ __device__ unsigned size() const { return end - begin; }
};

} // namespace bench
"""

LEGACY_WARP_CUH = """\
// Warp reductions written for Kepler, shared by several kernels.
#pragma once
#include "config.h"

template <typename T> __device__ T legacyWarpSum(T val) {
  for (int offset = WARP_SIZE / 2; offset > 0; offset /= 2)
    val += __shfl_down(val, offset);
  return val;
}

__device__ inline int legacyWarpMax(int val) {
  for (int offset = 16; offset > 0; offset >>= 1) {
    int other = __shfl_xor(val, offset);
    val = val > other ? val : other;
  }
  return val;
}

__device__ inline unsigned legacyWarpCount(bool pred) {
  return __popc(__ballot(pred));
}
"""

HOST_UTIL_H = """\
// Host-side helpers.
#pragma once
#include <cstddef>
#include <cstdio>
#include <cstdlib>

#define BENCH_CHECK(call)                                                      \\
  do {                                                                         \\
    cudaError_t err_ = (call);                                                 \\
    if (err_ != cudaSuccess) {                                                 \\
      std::fprintf(stderr, "%s:%d: %s\\n", __FILE__, __LINE__,                  \\
                   cudaGetErrorString(err_));                                  \\
      std::exit(1);                                                            \\
    }                                                                          \\
  } while (0)

inline std::size_t bench_round_up(std::size_t n, std::size_t m) {
  return (n + m - 1) / m * m;
}
"""

HEADERS = {
    "include/config.h": CONFIG_H,
    "include/util.cuh": UTIL_CUH,
    "include/legacy_warp.cuh": LEGACY_WARP_CUH,
    "include/host_util.h": HOST_UTIL_H,
}
