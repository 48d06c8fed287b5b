// A branch on what an accessor returns (`shape[0]`, `dims.rows()`, a free
// function of its arguments) is as warp-uniform as what the accessor reads:
// here a kernel parameter, so every lane reaches the shuffles under it and
// the full mask is exact. mshadow's reductions branch on `eshape[0]` this
// way. The traps are in accessor-conditions-no-fix.cu.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 0 %warpfix --no-cache --fix %t/k.cu
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --strict-whitespace --input-file=%t/k.cu
// RUN: %expect-exit 0 %warpfix --no-cache %t/k.cu
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/k.cu %}

struct Shape2 {
  unsigned shape_[2];
  __device__ unsigned &operator[](int i) { return shape_[i]; }
  __device__ unsigned rows() { return shape_[0] * 2u + 1u; }
};

__device__ unsigned half(unsigned n) { return n / 2u; }

__global__ void on_parameter(float *out, Shape2 e) {
  float v = out[threadIdx.x];
  if (e[0] >= 32u)
    v += __shfl_down(v, 16);
  if (e.rows() > 7u && half(e[1]) != 0u)
    v += __shfl_xor(v, 1);
  out[threadIdx.x] = v;
}

// CHECK-MESSAGES: :24:10: warning: '__shfl_down' is a legacy warp intrinsic
// CHECK-MESSAGES: :24:10: note: every lane of the warp reaches this call, so the full mask is exact
// CHECK-MESSAGES: :26:10: warning: '__shfl_xor' is a legacy warp intrinsic
// CHECK-MESSAGES: :26:10: note: every lane of the warp reaches this call, so the full mask is exact
// CHECK-FIXES:    v += __shfl_down_sync(0xffffffff, v, 16);
// CHECK-FIXES:    v += __shfl_xor_sync(0xffffffff, v, 1);
