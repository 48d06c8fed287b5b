// A full mask in a thread-strided loop, `for (i = threadIdx.x; i < padded;
// i += blockDim.x)` with `padded` a multiple of 32, is right where blockDim.x
// is a multiple of 32 too: every lane of a warp runs the same iterations
// (issue 15, item 8a). Near misses keep lanes leaving at different
// iterations and are reported; with no whole-warp assumption, blockDim.x is
// not known to be a multiple of 32, so the first loop is reported as well.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache --checks=-*,warp-full-mask-divergent %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 1 %warpfix --no-cache --checks=-*,warp-full-mask-divergent --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=SUMMARY
// RUN: diff %s %t/k.cu
// RUN: %expect-exit 1 %warpfix --no-cache --checks=-*,warp-full-mask-divergent --assume-whole-warps=false %t/k.cu 2>&1 | FileCheck %s --check-prefix=NO-WHOLE-WARPS
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/k.cu %}
// SUMMARY: 4 findings in 1 file (0 fixable)

__global__ void padded_loop(const float *in, float *out, int n) {
  int padded = (n + 31) / 32 * 32;
  float acc = 0;
  for (int i = threadIdx.x; i < padded; i += blockDim.x) {
    float v = i < n ? in[i] : 0.0f;
    for (int offset = 16; offset > 0; offset /= 2)
      v += __shfl_down_sync(0xffffffff, v, offset);
    // NO-WHOLE-WARPS: :[[@LINE-1]]:29: warning: the full mask names every lane
    acc += v;
  }
  out[threadIdx.x] = acc;
}

// Whole warps of 32-element chunks: `chunks << 5` and `chunks * 32`.
__global__ void shifted_bound(const float *in, float *out, int chunks) {
  float acc = 0;
  for (int i = threadIdx.x; i < (chunks << 5); i += blockDim.x)
    acc += __shfl_xor_sync(0xffffffff, in[i], 1);
  // NO-WHOLE-WARPS: :[[@LINE-1]]:28: warning: the full mask names every lane
  for (int i = threadIdx.x; i < chunks * 32; i += 2 * blockDim.x)
    acc += __shfl_xor_sync(0xffffffff, in[i], 1);
  // NO-WHOLE-WARPS: :[[@LINE-1]]:28: warning: the full mask names every lane
  out[threadIdx.x] = acc;
}

__global__ void padded_by_16(const float *in, float *out, int n) {
  int padded = (n + 15) / 16 * 16;
  float acc = 0;
  for (int i = threadIdx.x; i < padded; i += blockDim.x)
    acc += __shfl_xor_sync(0xffffffff, in[i], 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: the full mask names every lane
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: no automatic fix: the loop's condition is lane-dependent
  out[threadIdx.x] = acc;
}

__global__ void half_stride(const float *in, float *out, int n) {
  int padded = (n + 31) / 32 * 32;
  float acc = 0;
  for (int i = threadIdx.x; i < padded; i += blockDim.x / 2)
    acc += __shfl_xor_sync(0xffffffff, in[i], 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: the full mask names every lane
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: no automatic fix: the loop's condition is lane-dependent
  out[threadIdx.x] = acc;
}

// A bound one past a multiple of 32 (the counter n++), and one scaled by a
// float, are not multiples of 32.
__global__ void not_multiples(const float *in, float *out, int k) {
  int n = k * 32;
  n++;
  float acc = 0;
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    acc += __shfl_xor_sync(0xffffffff, in[i], 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: the full mask names every lane
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: no automatic fix: the loop's condition is lane-dependent
  int m = k * 32 * 0.5f;
  for (int i = threadIdx.x; i < m; i += blockDim.x)
    acc += __shfl_xor_sync(0xffffffff, in[i], 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: the full mask names every lane
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: no automatic fix: the loop's condition is lane-dependent
  out[threadIdx.x] = acc;
}
// NO-WHOLE-WARPS: 7 findings in 1 file (0 fixable)
