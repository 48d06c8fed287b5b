// A library's helper template that only its kernel templates call, none of
// which the unit instantiates (issue 43, item 2). The calls are written with
// arguments of a template parameter's type, so they name no function until
// an instantiation resolves them; in a template that is not instantiated
// they are the only calls there are, and each counts as a call of every
// function its name finds. A __global__ template is entered by every lane,
// and a condition on a template parameter is the same for every lane, so
// these helpers are reached by whole warps and the full mask is exact in
// every instantiation. nvcc alone instantiates them (`#ifdef __NVCC__`).
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 0 %warpfix --no-cache --fix %t/k.cu
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --strict-whitespace --input-file=%t/k.cu
// RUN: cp %t/k.cu %t/once.cu
// RUN: %expect-exit 0 %warpfix --no-cache --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=IDEMPOTENT
// RUN: diff %t/once.cu %t/k.cu
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/k.cu %}
// IDEMPOTENT: 0 findings in 0 files (0 fixable)

template <class T>
__device__ T warp_sum(T v) {
  for (int offset = 16; offset > 0; offset >>= 1)
    v += __shfl_xor(v, offset);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: '__shfl_xor' is a legacy
  // CHECK-MESSAGES: :[[@LINE-2]]:10: note: every lane of the warp reaches this call, so the full mask is exact
  return v;
}
// CHECK-FIXES:{{^}}    v += __shfl_xor_sync(0xffffffff, v, offset);

// CUB's shape: the width is a template parameter, and the branch on it is
// taken by every lane of the warp or by none.
template <int LOGICAL_WARP_THREADS, class T>
__device__ T logical_warp_sum(T v) {
  if (LOGICAL_WARP_THREADS == 32) {
    for (int offset = 16; offset > 0; offset >>= 1)
      v += __shfl_down(v, offset);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: '__shfl_down' is a legacy
    // CHECK-MESSAGES: :[[@LINE-2]]:12: note: every lane of the warp reaches this call, so the full mask is exact
  } else {
    for (int offset = LOGICAL_WARP_THREADS / 2; offset > 0; offset >>= 1)
      v += __shfl_down(v, offset, LOGICAL_WARP_THREADS);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: '__shfl_down' is a legacy
    // CHECK-MESSAGES: :[[@LINE-2]]:12: note: every lane of the warp reaches this call, so the full mask is exact
  }
  return v;
}
// CHECK-FIXES:{{^}}      v += __shfl_down_sync(0xffffffff, v, offset);
// CHECK-FIXES:{{^}}      v += __shfl_down_sync(0xffffffff, v, offset, LOGICAL_WARP_THREADS);

// One name, two templates: the call counts for both.
template <class T>
__device__ T broadcast(T v) {
  return __shfl(v, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: '__shfl' is a legacy
  // CHECK-MESSAGES: :[[@LINE-2]]:10: note: every lane of the warp reaches this call, so the full mask is exact
}
template <class T>
__device__ T broadcast(T v, int from) {
  return __shfl(v, from);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: '__shfl' is a legacy
  // CHECK-MESSAGES: :[[@LINE-2]]:10: note: every lane of the warp reaches this call, so the full mask is exact
}
// CHECK-FIXES:{{^}}  return __shfl_sync(0xffffffff, v, 0);
// CHECK-FIXES:{{^}}  return __shfl_sync(0xffffffff, v, from);

template <class T>
__global__ void reduce_rows(const T *in, T *out) {
  T v = in[blockIdx.x * blockDim.x + threadIdx.x];
  v = warp_sum(v);
  v = logical_warp_sum<32>(v) + logical_warp_sum<8>(v);
  v = broadcast(v) + broadcast(v, 3);
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

// A second kernel template calls warp_sum from every lane too.
template <class T, int N>
__global__ void reduce_columns(const T *in, T *out) {
  T v = in[threadIdx.x * N];
  if (N > 1)
    v = warp_sum(v);
  out[threadIdx.x] = v;
}

// A template that the unit instantiates is judged by its instantiations:
// in warp_offsets<int>, `warp >= limit - 1` is the same for the lanes of a
// warp, though as written its type depends on a parameter.
template <class I>
__device__ I offset_step(I v) {
  return v + __shfl_up(v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: '__shfl_up' is a legacy
  // CHECK-MESSAGES: :[[@LINE-2]]:14: note: every lane of the warp reaches this call, so the full mask is exact
}
// CHECK-FIXES:{{^}}  return v + __shfl_up_sync(0xffffffff, v, 1);

template <class I>
__global__ void warp_offsets(I *io, I limit) {
  const I warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  if (warp >= limit - 1)
    return;
  io[threadIdx.x] = offset_step(io[threadIdx.x]);
}
template __global__ void warp_offsets<int>(int *, int);

// nvcc alone instantiates them, to judge the rewrite.
#ifdef __NVCC__
template __global__ void reduce_rows<int>(const int *, int *);
template __global__ void reduce_columns<float, 4>(const float *, float *);
#endif
