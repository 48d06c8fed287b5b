// An error in one kernel withholds the fixes of that kernel and of the device
// functions it calls (their call sites decide who reaches their code); the
// other kernel is fixed.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --input-file=%t/k.cu

__device__ int helper(int v) { return v + __shfl_down(v, 1); }
// CHECK-MESSAGES: k.cu:[[@LINE-1]]:43: warning: '__shfl_down' is a legacy
// CHECK-MESSAGES: k.cu:[[@LINE-2]]:43: note: no automatic fix: this translation unit has 1 error, one of them in 'broken', which decides who reaches this code: {{.*}}k.cu:[[@LINE+5]]:19: use of undeclared identifier 'missing_value'
// CHECK-FIXES: __device__ int helper(int v) { return v + __shfl_down(v, 1); }

__global__ void broken(int *o) {
  int v = o[threadIdx.x];
  if (v > 2) v += missing_value;
  o[threadIdx.x] = helper(v);
}

__global__ void fine(int *o) {
  int v = o[threadIdx.x];
  o[threadIdx.x] = __shfl_xor(v, 1);
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:20: warning: '__shfl_xor' is a legacy
  // CHECK-MESSAGES: k.cu:[[@LINE-2]]:20: note: every lane of the warp reaches this call
  // CHECK-MESSAGES: k.cu:[[@LINE-3]]:20: note: analysed despite errors
  // CHECK-FIXES: o[threadIdx.x] = __shfl_xor_sync(0xffffffff, v, 1);
}
// CHECK-MESSAGES: fixed 1 finding in 1 file; 1 remain
