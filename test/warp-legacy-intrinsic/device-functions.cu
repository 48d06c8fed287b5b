// A device function's entry counts as reached by all lanes when every call of
// it in the translation unit is; templates are fixed once when every
// instantiation agrees, and reported without a fix when they do not.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 1 %warpfix --fix %t/k.cu
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --input-file=%t/k.cu
// RUN: %expect-exit 1 %warpfix --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=SECOND
// SECOND: 2 findings in 1 file (0 fixable)

__device__ __forceinline__ int warpReduceSum(int val) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    val += __shfl_down(val, offset);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: '__shfl_down' is a legacy
  // CHECK-MESSAGES: :[[@LINE-2]]:12: note: every lane of the warp reaches this call
  return val;
}

template <typename T> __device__ T broadcast(T v) {
  return __shfl(v, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: '__shfl' is a legacy
  // CHECK-MESSAGES: :[[@LINE-2]]:10: note: every lane of the warp reaches this call
}

template <typename T> __device__ T unused_template(T v) {
  return __shfl_xor(v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: '__shfl_xor' is a legacy
  // CHECK-MESSAGES: :[[@LINE-3]]:36: note: no automatic fix (this translation unit abstains): 'unused_template' is template code that nothing calls or instantiates in this translation unit, so who reaches it is unknown
}

template <int Width> __global__ void split(int *p) {
  if (threadIdx.x < Width)
    p[threadIdx.x] = __shfl_up(p[threadIdx.x], 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: '__shfl_up' is a legacy
  // CHECK-MESSAGES: :[[@LINE-2]]:22: note: no automatic fix: this code is shared by several macro expansions, template instantiations or translation units, and they need different fixes
}
template __global__ void split<32>(int *);
template __global__ void split<8>(int *);

__global__ void kernel(int *p, float *f, double *d) {
  p[threadIdx.x] = warpReduceSum(p[threadIdx.x]) + broadcast(p[0]);
  f[threadIdx.x] = broadcast(f[threadIdx.x]);
  d[threadIdx.x] = broadcast(d[threadIdx.x]);
}
// CHECK-FIXES: val += __shfl_down_sync(0xffffffff, val, offset);
// CHECK-FIXES: return __shfl_sync(0xffffffff, v, 0);
// CHECK-FIXES: return __shfl_xor(v, 1);
// CHECK-FIXES: p[threadIdx.x] = __shfl_up(p[threadIdx.x], 1);
