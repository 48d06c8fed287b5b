// nvcc declares min and max for host code too; clang 19's CUDA wrapper
// declares them for the device only. Host code sizing a launch with min()
// gave "no matching function for call to 'min'", and since that error is in
// what decides the launch's block, the kernel's fixes were withheld. warpfix
// declares nvcc's host overloads, and the unit parses clean; device code
// still calls clang's device min and max.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache --strict-parse %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=error: --implicit-check-not=warning:
// RUN: %expect-exit 0 %warpfix --no-cache --fix %t/k.cu
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --input-file=%t/k.cu
// RUN: %expect-exit 0 %warpfix --no-cache %t/k.cu 2>&1 | FileCheck %s --check-prefix=IDEMPOTENT
// IDEMPOTENT: 0 findings in 0 files (0 fixable)
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/k.cu %}
__host__ __device__ int clampToWarp(int v) { return min(max(v, 0), 31); }

__global__ void partialSums(int *data) {
  int v = data[threadIdx.x];
  v += __shfl_xor(v, clampToWarp(16));
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:8: warning: '__shfl_xor' is a legacy
  // CHECK-MESSAGES: k.cu:[[@LINE-2]]:8: note: every lane that the warp has reaches this call; in a block whose last warp is partial, the lanes it lacks count as exited, which the full mask allows
  // CHECK-MESSAGES: k.cu:[[@LINE+9]]:3: note: the blocks of kernel 'partialSums' may end in a partial warp: it is launched here with a block size that warpfix cannot evaluate
  // CHECK-FIXES:   v += __shfl_xor_sync(0xffffffff, v, clampToWarp(16));
  data[threadIdx.x] = v;
}

void launch(int *data, int n, long long bytes, unsigned count) {
  int block = min(n, 256);
  float share = max(0.5f, 1.0f / n);
  unsigned long long limit = min(bytes, 1ll << 20) + max(count, 1);
  partialSums<<<(n + block - 1) / block, block>>>(data);
  (void)share;
  (void)limit;
}
// CHECK-MESSAGES: translation units: 1 analysed clean
