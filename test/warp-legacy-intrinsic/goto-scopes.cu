// Where a goto counts. A goto anywhere in a function may repeat or skip code
// for some lanes, so no call in it is fixed (unknown-membership.cu). A
// lambda's body is a function of its own: its goto leaves the kernel around
// it alone. A local class's methods and a statement expression are read as
// part of the kernel, which refuses (conservative for the method).
// No nvcc step: the refused calls stay legacy, which CUDA 13 does not compile.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 1 %warpfix --no-cache --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=SUMMARY
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --strict-whitespace --input-file=%t/k.cu
// RUN: cp %t/k.cu %t/once.cu
// RUN: %expect-exit 1 %warpfix --no-cache --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=AGAIN
// RUN: diff %t/once.cu %t/k.cu
// SUMMARY: fixed 1 finding in 1 file; 2 remain
// AGAIN: fixed 0 findings in 0 files; 2 remain

__global__ void goto_in_lambda(int *p) {
  auto clamp = [](int x) {
    if (x < 0)
      goto zero;
    return x;
  zero:
    return 0;
  };
  int v = clamp(p[threadIdx.x]);
  v = __shfl_down(v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: '__shfl_down' is a legacy
  // CHECK-MESSAGES: :[[@LINE-2]]:7: note: every lane of the warp reaches this call, so the full mask is exact
  p[threadIdx.x] = v;
}
// CHECK-FIXES:{{^}}  v = __shfl_down_sync(0xffffffff, v, 1);

__global__ void goto_in_local_class(int *p) {
  struct Clamp {
    __device__ static int of(int x) {
      if (x < 0)
        goto zero;
      return x;
    zero:
      return 0;
    }
  };
  int v = Clamp::of(p[threadIdx.x]);
  v = __shfl_down(v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: '__shfl_down' is a legacy
  // CHECK-MESSAGES: :[[@LINE-13]]:17: note: no automatic fix: a goto in the function may repeat or skip code for some lanes
  p[threadIdx.x] = v;
}
// CHECK-FIXES:{{^}}  int v = Clamp::of(p[threadIdx.x]);
// CHECK-FIXES-NEXT:{{^}}  v = __shfl_down(v, 1);

__global__ void goto_in_statement_expression(int *p) {
  int v = 0;
  v = ({
    int x = p[threadIdx.x];
    if (x < 0)
      goto zero;
    x;
  });
zero:
  v = __shfl_down(v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: '__shfl_down' is a legacy
  // CHECK-MESSAGES: :[[@LINE-11]]:17: note: no automatic fix: a goto in the function may repeat or skip code for some lanes
  p[threadIdx.x] = v;
}
// CHECK-FIXES:{{^}}zero:
// CHECK-FIXES-NEXT:{{^}}  v = __shfl_down(v, 1);
