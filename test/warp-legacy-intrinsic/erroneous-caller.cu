// A call that clang cannot resolve (no overload takes its arguments) stays
// in the tree as an error. Once the user mends it, it calls the helper its
// name finds, from lanes that the error hides: here the low lanes only, so
// the full mask that the other caller alone would give is wrong. The helper
// gets no fix, in a function and in a template alike.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 1 %warpfix --no-cache --fix %t/k.cu
// RUN: diff %s %t/k.cu
// CHECK-MESSAGES: error: no matching function for call to 'lane_sum'
// CHECK-MESSAGES: error: no matching function for call to 'pair_sum'

__device__ int lane_sum(int v) { return v + __shfl_xor(v, 1); }
// CHECK-MESSAGES: :[[@LINE-1]]:45: warning: '__shfl_xor' is a legacy
// CHECK-MESSAGES: :[[@LINE+4]]:33: note: no automatic fix: clang could not resolve this call, which may be one of 'lane_sum' once mended, from lanes that the error hides

__global__ void whole(int *io) { io[threadIdx.x] = lane_sum(io[threadIdx.x]); }
__global__ void broken(int *io) {
  if (threadIdx.x < 16) io[0] = lane_sum(io[0], 1, 2);
}

template <class T> __device__ T pair_sum(T v) { return v + __shfl_xor(v, 1); }
// CHECK-MESSAGES: :[[@LINE-1]]:60: warning: '__shfl_xor' is a legacy
// CHECK-MESSAGES: :[[@LINE+5]]:13: note: no automatic fix: clang could not resolve this call, which may be one of 'pair_sum' once mended, from lanes that the error hides

template <class T> __global__ void whole_t(T *io) { io[threadIdx.x] = pair_sum(io[threadIdx.x]); }
template <int N> __global__ void broken_t(float *io) {
  if (threadIdx.x < 16)
    io[0] = pair_sum(io[0], 1, 2);
}
