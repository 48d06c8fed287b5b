// A branch condition that clang could not read (an undeclared function) is
// an error, not template code: the note says so, and nothing is fixed.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=template
// RUN: diff %s %t/k.cu

__global__ void k(int *o) {
  int v = o[threadIdx.x];
  if (undeclared_predicate(v))
    v += __shfl_down(v, 1);
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:10: warning: '__shfl_down' is a legacy
  // CHECK-MESSAGES: k.cu:[[@LINE-3]]:7: note: no automatic fix: the branch condition has an error, so which lanes take the branch is not known
  o[threadIdx.x] = v;
}
// CHECK-MESSAGES: fixed 0 findings in 0 files; 1 remain
