// PTX in templates: each instantiation is analysed on its own, and the one
// template text is fixed once because every instantiation needs the same
// edit. The segment width lives in the shuffle's c operand, which stays.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 0 %warpfix --fix %t/k.cu
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --input-file=%t/k.cu
// RUN: %expect-exit 0 %warpfix %t/k.cu
// RUN: %if nvcc %{ %nvcc-check -arch=sm_75 %t/k.cu %}
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/k.cu %}

template <int Width>
__device__ int segment_broadcast(int v, int src) {
  int r;
  asm("shfl.idx.b32 %0, %1, %2, %3;"
      : "=r"(r) : "r"(v), "r"(src), "n"(((32 - Width) << 8) | 0x1f));
  // CHECK-MESSAGES: :[[@LINE-2]]:8: warning: 'shfl.idx.b32' is legacy PTX
  // CHECK-MESSAGES: :[[@LINE-3]]:8: note: every lane of the warp reaches this statement, so the full mask is exact
  return r;
}
// CHECK-FIXES: asm("shfl.sync.idx.b32 %0, %1, %2, %3, 0xffffffff;"

template <typename T>
__global__ void broadcast(T *p) {
  int v = int(p[threadIdx.x]);
  v = segment_broadcast<8>(v, 0) + segment_broadcast<16>(v, 1);
  p[threadIdx.x] = T(v);
}

template __global__ void broadcast<int>(int *);
template __global__ void broadcast<float>(float *);
