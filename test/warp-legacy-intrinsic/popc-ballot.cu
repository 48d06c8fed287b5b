// __popc(__ballot(1)) counts the lanes active at that point: its faithful
// rewrite is __popc(__activemask()), wherever it stands. Other ballots of a
// constant get the mask of the lanes that reach them.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 0 %warpfix --fix %t/k.cu
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --input-file=%t/k.cu
// RUN: %expect-exit 0 %warpfix %t/k.cu
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/k.cu %}

__global__ void count(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  while (p[i] > n) {
    p[i] -= __popc(__ballot(1));
    // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: '__ballot' is a legacy
    // CHECK-MESSAGES: :[[@LINE-2]]:20: note: __popc(__ballot(1)) counts the lanes active at this point, which is what __activemask() returns
    p[i] -= __popc( __ballot(true) ) + __popcll(__ballot(1));
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: '__ballot' is a legacy
    // CHECK-MESSAGES: :[[@LINE-2]]:49: warning: '__ballot' is a legacy
  }
  unsigned all = __ballot(1);
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: '__ballot' is a legacy
  // CHECK-MESSAGES: :[[@LINE-2]]:18: note: every lane of the warp reaches this call
  p[i] += __popc(all);
}
// CHECK-FIXES: p[i] -= __popc(__activemask());
// CHECK-FIXES: p[i] -= __popc( __activemask() ) + __popcll(__activemask());
// CHECK-FIXES: unsigned all = __ballot_sync(0xffffffff, 1);
