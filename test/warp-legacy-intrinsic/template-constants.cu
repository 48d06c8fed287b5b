// In a template as written, an expression of non-type template parameters
// is the same for every thread of every instantiation, and a call of an
// instantiation is a call of the template: the template's own analysis no
// longer vetoes the fix its instantiations agree on.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 0 %warpfix --fix %t/k.cu
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --input-file=%t/k.cu
// RUN: cp %t/k.cu %t/once.cu
// RUN: %expect-exit 0 %warpfix --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=IDEMPOTENT
// RUN: diff %t/once.cu %t/k.cu
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/k.cu %}
// IDEMPOTENT: 0 findings in 0 files (0 fixable)
template <int Width>
__device__ int broadcast_in_group(int v) { return __shfl(v, 0, Width); }

__global__ void uses_broadcast(int *o) {
  o[threadIdx.x] = broadcast_in_group<8>(o[threadIdx.x]);
}

template <int Steps>
__global__ void fixed_trip_count(unsigned *o) {
  unsigned v = o[threadIdx.x];
  for (int i = 0; i < Steps; ++i)
    v += __shfl_xor(v, 1 << i);
  o[threadIdx.x] = v;
}
template __global__ void fixed_trip_count<5>(unsigned *);

template <unsigned BlockSize>
__global__ void guarded_by_parameter(int *o) {
  int v = o[threadIdx.x];
  if (BlockSize >= 64)
    v += __shfl_down(v, 16);
  o[threadIdx.x] = v;
}
template __global__ void guarded_by_parameter<128>(int *);

// Trap: a parameter that the lanes disagree on stays lane-dependent.
template <int Width>
__global__ void guarded_by_lane(int *o) {
  int v = o[threadIdx.x];
  if (threadIdx.x % Width == 0)
    v = __ballot(v > 0);
  o[threadIdx.x] = v;
}
template __global__ void guarded_by_lane<4>(int *);

// A local array of dependent size is not decayed in the template as written,
// and its index gets no lvalue-to-rvalue conversion: `mix[p]` only reads p,
// so p still counts as the same in every lane (ethminer's hash kernels).
template <unsigned Parallel>
__global__ void dependent_size_array(unsigned *o) {
  unsigned mix[Parallel];
  for (int p = 0; p < Parallel; p++)
    for (int j = 0; j < 8; j++)
      mix[p] = __shfl(o[j], p, 8);
  o[threadIdx.x] = mix[0];
}
template __global__ void dependent_size_array<2>(unsigned *);


// CHECK-MESSAGES: :15:51: warning: '__shfl' is a legacy warp intrinsic that CUDA 13 no longer compiles; use '__shfl_sync' with an explicit member mask
// CHECK-MESSAGES: :15:51: note: every lane of the warp reaches this call, so the full mask is exact
// CHECK-MESSAGES: :25:10: warning: '__shfl_xor' is a legacy warp intrinsic that CUDA 13 no longer compiles; use '__shfl_xor_sync' with an explicit member mask
// CHECK-MESSAGES: :25:10: note: every lane of the warp reaches this call, so the full mask is exact
// CHECK-MESSAGES: :34:10: warning: '__shfl_down' is a legacy warp intrinsic that CUDA 13 no longer compiles; use '__shfl_down_sync' with an explicit member mask
// CHECK-MESSAGES: :34:10: note: every lane of the warp reaches this call, so the full mask is exact
// CHECK-MESSAGES: :44:9: warning: '__ballot' is a legacy warp intrinsic that CUDA 13 no longer compiles; use '__ballot_sync' with an explicit member mask
// CHECK-MESSAGES: :44:9: note: only some lanes reach this call; the mask is a ballot of the branch conditions, taken before the branch (Using CUDA Warp-Level Primitives, listing 3)
// CHECK-FIXES: __device__ int broadcast_in_group(int v) { return __shfl_sync(0xffffffff, v, 0, Width); }
// CHECK-FIXES: v += __shfl_xor_sync(0xffffffff, v, 1 << i);
// CHECK-FIXES: v += __shfl_down_sync(0xffffffff, v, 16);
// CHECK-FIXES: const unsigned warpfix_mask_43 = __ballot_sync(0xffffffff, threadIdx.x % Width == 0);
// CHECK-FIXES: v = __ballot_sync(warpfix_mask_43, v > 0);
// CHECK-MESSAGES: :57:16: warning: '__shfl' is a legacy
// CHECK-MESSAGES: :57:16: note: every lane of the warp reaches this call, so the full mask is exact
// CHECK-FIXES: mix[p] = __shfl_sync(0xffffffff, o[j], p, 8);
