// Templates that nothing in the unit instantiates (issue 15, item 7): a
// __global__ template is entered by every lane of a warp, so its body as
// written is analysed like a kernel's, and the fix, one edit of the template
// that every instantiation shares, is made where it is right for all of them.
// A non-type parameter is a constant of the instantiation: `BS >= 64` is the
// same for every lane. A loop counter passed to the intrinsic, whose every
// overload takes it by value, keeps its value.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 0 %warpfix --no-cache --fix %t/k.cu
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --strict-whitespace --input-file=%t/k.cu
// RUN: cp %t/k.cu %t/once.cu
// RUN: %expect-exit 0 %warpfix --no-cache --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=IDEMPOTENT
// RUN: diff %t/once.cu %t/k.cu
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/k.cu %}
// IDEMPOTENT: 0 findings in 0 files (0 fixable)

template <class T, unsigned BS>
__global__ void block_sum(const T *in, T *out) {
  T v = in[blockIdx.x * BS + threadIdx.x];
  for (int offset = 16; offset > 0; offset >>= 1)
    v += __shfl_down(v, offset);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: '__shfl_down' is a legacy warp intrinsic that CUDA 13 no longer compiles; use '__shfl_down_sync' with an explicit member mask
  // CHECK-MESSAGES: :[[@LINE-2]]:10: note: every lane of the warp reaches this call, so the full mask is exact
  if (BS >= 64)
    v += __shfl_xor(v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: '__shfl_xor' is a legacy
  // CHECK-MESSAGES: :[[@LINE-2]]:10: note: every lane of the warp reaches this call, so the full mask is exact
  if (threadIdx.x % 32 == 0)
    out[blockIdx.x * (BS / 32) + threadIdx.x / 32] = v;
}
// CHECK-FIXES:{{^}}    v += __shfl_down_sync(0xffffffff, v, offset);
// CHECK-FIXES:{{^}}    v += __shfl_xor_sync(0xffffffff, v, 1);

// Only the lanes of the low half shuffle: a ballot of the branch, taken
// before it, is the mask in every instantiation.
template <class T>
__global__ void low_half(T *io) {
  T v = io[threadIdx.x];
  if (threadIdx.x % 32 < 16) {
    v += __shfl_xor(v, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: '__shfl_xor' is a legacy
    // CHECK-MESSAGES: :[[@LINE-2]]:10: note: only some lanes reach this call; the mask is a ballot of the branch conditions, taken before the branch (Using CUDA Warp-Level Primitives, listing 3)
  }
  io[threadIdx.x] = v;
}
// CHECK-FIXES:{{^}}  const unsigned [[M:warpfix_mask_[0-9]+]] = __ballot_sync(0xffffffff, threadIdx.x % 32 < 16);
// CHECK-FIXES-NEXT:{{^}}  if (threadIdx.x % 32 < 16) {
// CHECK-FIXES-NEXT:{{^}}    v += __shfl_xor_sync([[M]], v, 1);

// A vote over a type parameter's values: the argument is dependent, the
// lanes are not.
template <class T, int N>
__global__ void count_positive(const T *in, unsigned *out) {
  unsigned votes = __ballot(in[threadIdx.x] > T(N));
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: '__ballot' is a legacy
  // CHECK-MESSAGES: :[[@LINE-2]]:20: note: every lane of the warp reaches this call, so the full mask is exact
  out[threadIdx.x] = votes;
}
// CHECK-FIXES:{{^}}  unsigned votes = __ballot_sync(0xffffffff, in[threadIdx.x] > T(N));

// A local array of dependent size: `mix[p]` has no decay and no
// lvalue-to-rvalue conversion as written, yet it only reads p, so the trip
// count stays the same for every lane.
template <unsigned Parallel>
__global__ void dependent_size_array(unsigned *o) {
  unsigned mix[Parallel];
  for (int p = 0; p < Parallel; p++)
    mix[p] = __shfl(o[p], p, 8);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: '__shfl' is a legacy
  // CHECK-MESSAGES: :[[@LINE-2]]:14: note: every lane of the warp reaches this call, so the full mask is exact
  o[threadIdx.x] = mix[0];
}
// CHECK-FIXES:{{^}}    mix[p] = __shfl_sync(0xffffffff, o[p], p, 8);
