// Legacy calls whose climb to the enclosing function passes through nodes
// that are not plain statements: a default argument (one expression that every
// call without the argument shares), a decltype, a lambda, and a template
// instantiated twice. The checks' parent index (checks/analysis/Parents.h)
// must answer as clang's parent map does: the first parent in traversal order
// (issue 18). The two that are not in a function body keep their legacy call,
// so the fixed file is not compiled with nvcc: CUDA 13 rejects those calls.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 1 %warpfix --no-cache --fix %t/k.cu
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --strict-whitespace --input-file=%t/k.cu
// RUN: %expect-exit 1 %warpfix --no-cache %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-AGAIN --implicit-check-not=warning:

__device__ int pick(int v, int lane = __shfl(0, 0)) { return v + lane; }
// CHECK-MESSAGES: :[[@LINE-1]]:39: warning: '__shfl' is a legacy warp intrinsic
// CHECK-MESSAGES: :[[@LINE-2]]:39: note: no automatic fix: the code is not inside a function body
// CHECK-AGAIN: :[[@LINE-3]]:39: warning: '__shfl' is a legacy warp intrinsic
// CHECK-FIXES:{{^}}__device__ int pick(int v, int lane = __shfl(0, 0)) { return v + lane; }

__global__ void defaults(int *io) {
  io[threadIdx.x] = pick(io[threadIdx.x]) + pick(io[threadIdx.x] + 1);
}

__global__ void unevaluated(int *io) {
  int v = io[threadIdx.x];
  decltype(__shfl_down(v, 1)) w = v;
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: '__shfl_down' is a legacy warp intrinsic
  // CHECK-MESSAGES: :[[@LINE-2]]:12: note: no automatic fix: the code is not inside a function body
  // CHECK-AGAIN: :[[@LINE-3]]:12: warning: '__shfl_down' is a legacy warp intrinsic
  // CHECK-FIXES:{{^}}  decltype(__shfl_down(v, 1)) w = v;
  io[threadIdx.x] = w + __shfl_down(v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: '__shfl_down' is a legacy warp intrinsic
  // CHECK-MESSAGES: :[[@LINE-2]]:25: note: every lane of the warp reaches this call, so the full mask is exact
  // CHECK-FIXES:{{^}}  io[threadIdx.x] = w + __shfl_down_sync(0xffffffff, v, 1);
}

__global__ void lambda(int *io) {
  auto f = [](int v) { return __shfl_xor(v, 1); };
  // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: '__shfl_xor' is a legacy warp intrinsic
  // CHECK-MESSAGES: :[[@LINE-2]]:31: note: every lane of the warp reaches this call, so the full mask is exact
  // CHECK-FIXES:{{^}}  auto f = [](int v) { return __shfl_xor_sync(0xffffffff, v, 1); };
  io[threadIdx.x] = f(io[threadIdx.x]);
}

template <typename T> __device__ T twice(T v) {
  if (threadIdx.x % 32 < 16)
    v += __shfl_xor(v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: '__shfl_xor' is a legacy warp intrinsic
  // CHECK-MESSAGES: :[[@LINE-2]]:10: note: only some lanes reach this call; the mask is a ballot of the branch conditions
  // CHECK-FIXES:{{^}}  const unsigned warpfix_mask_{{[0-9]+}} = __ballot_sync(0xffffffff, threadIdx.x % 32 < 16);
  // CHECK-FIXES-NEXT:{{^}}  if (threadIdx.x % 32 < 16)
  // CHECK-FIXES-NEXT:{{^}}    v += __shfl_xor_sync(warpfix_mask_{{[0-9]+}}, v, 1);
  return v;
}

__global__ void instances(int *a, float *b) {
  a[threadIdx.x] = twice(a[threadIdx.x]);
  b[threadIdx.x] = twice(b[threadIdx.x]);
}
