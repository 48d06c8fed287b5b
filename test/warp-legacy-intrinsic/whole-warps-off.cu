// With --assume-whole-warps=false, threadIdx.x < 32 no longer counts as
// selecting whole warps: the mask becomes a ballot of the condition.
// RUN: %{copy-to-k} && cp %s %t/default.cu
// RUN: %expect-exit 0 %warpfix --fix --assume-whole-warps=false %t/k.cu
// RUN: FileCheck %s --check-prefix=OFF --match-full-lines --input-file=%t/k.cu
// RUN: %expect-exit 0 %warpfix --fix %t/default.cu
// RUN: FileCheck %s --check-prefix=ON --match-full-lines --input-file=%t/default.cu
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/k.cu %}

__global__ void first_warp(int *p) {
  int v = p[threadIdx.x];
  if (threadIdx.x < 32)
    v += __shfl_xor(v, 16);
  p[threadIdx.x] = v;
}
// OFF: const unsigned [[M:warpfix_mask_[0-9]+]] = __ballot_sync(0xffffffff, threadIdx.x < 32);
// OFF-NEXT: if (threadIdx.x < 32)
// OFF-NEXT: v += __shfl_xor_sync([[M]], v, 16);
// ON: if (threadIdx.x < 32)
// ON-NEXT: v += __shfl_xor_sync(0xffffffff, v, 16);
