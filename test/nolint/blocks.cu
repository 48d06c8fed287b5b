// Begin/end ranges suppress what lies strictly between the two comments:
// every check when bare, the listed ones otherwise. Ranges nest; an end
// closes the innermost open range, whose list it must repeat.
// (Prose in this file avoids the directive words, which would count.)
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 0 %warpfix --fix %t/k.cu
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --strict-whitespace --input-file=%t/k.cu
// RUN: cp %t/k.cu %t/once.cu
// RUN: %expect-exit 0 %warpfix --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=SECOND
// RUN: diff %t/once.cu %t/k.cu
// SECOND: 0 findings in 0 files (0 fixable)

__global__ void bare(int *p) {
  int v = p[threadIdx.x];
  // NOLINTBEGIN
  v += __shfl_down(v, 1);
  v += __shfl_sync(__activemask(), v, 1);
  // NOLINTEND
  v += __shfl_down(v, 2);
  // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: '__shfl_down' is a legacy
  p[threadIdx.x] = v;
}
// CHECK-FIXES:{{^}}  v += __shfl_down(v, 1);
// CHECK-FIXES-NEXT:{{^}}  v += __shfl_sync(__activemask(), v, 1);
// CHECK-FIXES:{{^}}  v += __shfl_down_sync(0xffffffff, v, 2);

__global__ void listed(int *p) {
  int v = p[threadIdx.x];
  // NOLINTBEGIN( warp-legacy-intrinsic )
  v += __shfl_down(v, 3);
  v += __shfl_sync(__activemask(), v, 3);
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: {{.*}} [warp-activemask-mask]
  // NOLINTEND(warp-legacy-intrinsic)
  p[threadIdx.x] = v;
}
// CHECK-FIXES:{{^}}  v += __shfl_down(v, 3);
// CHECK-FIXES-NEXT:{{^}}  v += __shfl_sync(0xffffffff, v, 3);

__global__ void nested(int *p) {
  int v = p[threadIdx.x];
  // NOLINTBEGIN(warp-activemask-mask)
  v += __shfl_sync(__activemask(), v, 4);
  // NOLINTBEGIN(warp-legacy-*)
  v += __shfl_down(v, 4) + __shfl_sync(__activemask(), v, 5);
  // NOLINTEND(warp-legacy-*)
  v += __shfl_down(v, 5);
  // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: '__shfl_down' is a legacy
  // NOLINTEND(warp-activemask-mask)
  v += __shfl_sync(__activemask(), v, 6);
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: {{.*}} [warp-activemask-mask]
  p[threadIdx.x] = v;
}
// CHECK-FIXES:{{^}}  v += __shfl_sync(__activemask(), v, 4);
// CHECK-FIXES:{{^}}  v += __shfl_down(v, 4) + __shfl_sync(__activemask(), v, 5);
// CHECK-FIXES:{{^}}  v += __shfl_down_sync(0xffffffff, v, 5);
// CHECK-FIXES:{{^}}  v += __shfl_sync(0xffffffff, v, 6);

// A range may span functions, and starts and ends at the comments
// themselves, not at line boundaries.
__global__ void across1(int *p) {
  int v = p[threadIdx.x];
  v += __shfl_xor(v, 1); /* NOLINTBEGIN */ v += __shfl_xor(v, 2);
  // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: '__shfl_xor' is a legacy
  p[threadIdx.x] = v;
}
__global__ void across2(int *p) {
  int v = p[threadIdx.x];
  v += __shfl_xor(v, 3); /* NOLINTEND */ v += __shfl_xor(v, 4);
  // CHECK-MESSAGES: :[[@LINE-1]]:47: warning: '__shfl_xor' is a legacy
  p[threadIdx.x] = v;
}
// CHECK-FIXES:{{^}}  v += __shfl_xor_sync(0xffffffff, v, 1); /* NO{{LINT}}BEGIN */ v += __shfl_xor(v, 2);
// CHECK-FIXES:{{^}}  v += __shfl_xor(v, 3); /* NO{{LINT}}END */ v += __shfl_xor_sync(0xffffffff, v, 4);
// CHECK-MESSAGES: 6 findings in 1 file (6 fixable)
