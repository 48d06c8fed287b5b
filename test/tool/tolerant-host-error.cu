// An error in host code (a call of a function nobody declared) no longer
// drops the TU: the kernel is analysed and fixed, its finding says the TU
// has an error, and a second --fix changes nothing. The exit code stays 1: the error may hide
// findings.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 1 %warpfix --no-cache --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=FIX
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --input-file=%t/k.cu
// RUN: cp %t/k.cu %t/once.cu
// RUN: %expect-exit 1 %warpfix --no-cache --fix %t/k.cu
// RUN: diff %t/once.cu %t/k.cu

__global__ void k(int *o) {
  int v = o[threadIdx.x];
  v += __shfl_down(v, 1);
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:8: warning: '__shfl_down' is a legacy
  // CHECK-MESSAGES: k.cu:[[@LINE-2]]:8: note: every lane of the warp reaches this call
  // CHECK-MESSAGES: k.cu:[[@LINE-3]]:8: note: analysed despite errors: this translation unit has 1 error; the first: {{.*}}k.cu:[[@LINE+7]]:3: use of undeclared identifier 'cudaSynchronizeEverything'
  // CHECK-FIXES: v += __shfl_down_sync(0xffffffff, v, 1);
  o[threadIdx.x] = v;
}

void run(int *o) {
  k<<<1, 64>>>(o);
  cudaSynchronizeEverything();
}
// CHECK-MESSAGES: translation units: 0 analysed clean, 1 analysed with errors, 0 not analysed, 0 crashed
// CHECK-MESSAGES: 1 finding in 1 file (1 fixable)
// FIX: fixed 1 finding in 1 file; 0 remain
