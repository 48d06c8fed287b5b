// Without a full-mask macro in the file, the fix writes 0xffffffff; a macro
// defined only after the call, or in another file, does not count.
// RUN: %{copy-to-k}
// RUN: %expect-exit 0 %warpfix --fix %t/k.cu
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --input-file=%t/k.cu
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/k.cu %}

__global__ void k(int *p) {
  p[threadIdx.x] = __shfl_xor(p[threadIdx.x], 1);
  // CHECK-FIXES: p[threadIdx.x] = __shfl_xor_sync(0xffffffff, p[threadIdx.x], 1);
}

#define LATE_MASK 0xFFFFFFFFu
