// nvcc declares CUDA's surface functions in every unit; clang 19's CUDA
// wrapper does not, so a kernel writing a surface gave "use of undeclared
// identifier 'surf2Dwrite'" and its unit's fixes were withheld. warpfix
// forces CUDA's own declarations in, and the unit parses clean.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache --strict-parse %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=error: --implicit-check-not=warning:
// RUN: %expect-exit 0 %warpfix --no-cache --fix %t/k.cu
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --input-file=%t/k.cu
// RUN: %expect-exit 0 %warpfix --no-cache %t/k.cu 2>&1 | FileCheck %s --check-prefix=IDEMPOTENT
// IDEMPOTENT: 0 findings in 0 files (0 fixable)
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/k.cu %}
// A toolkit without the header still parses (toolkit-fake.test).

__global__ void pyramid(cudaSurfaceObject_t dst, const float *src, int layer) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  float v = src[x];
  v += __shfl_down(v, 1);
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:8: warning: '__shfl_down' is a legacy
  // CHECK-FIXES:   v += __shfl_down_sync(0xffffffff, v, 1);
  surf2Dwrite(v, dst, x * 4, blockIdx.y, cudaBoundaryModeZero);
  surf2DLayeredwrite(v, dst, x * 4, blockIdx.y, layer, cudaBoundaryModeZero);
  float r = surf2Dread<float>(dst, x * 4, 0), q;
  surf1Dread(&q, dst, x * 4);
  surf3Dwrite(make_float2(r, q), dst, x * 8, 1, 2);
}
