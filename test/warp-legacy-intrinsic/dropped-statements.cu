// Where clang's recovery drops a statement, the AST does not hold the calls
// in it. From each error to the end of the declaration that holds it, the
// legacy names that the AST lacks are read from the text and reported, with
// no fix; the ones the AST holds are reported once, as usual. A macro's
// body is code only where it expands. A run with errors never exits 0: the
// host error below leaves no finding once the kernel is fixed, and the exit
// code is still 1.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: printf '__global__ void k(int *p) {\n  p[0] = __shfl_xor(p[0], 1);\n}\nvoid host() { undeclared_call(); }\n' > %t/host.cu
// RUN: %expect-exit 1 %warpfix --no-cache --fix %t/host.cu 2>&1 | FileCheck %s --check-prefix=HOST
// HOST: clang reported errors in 1 unit: code its recovery dropped may hide findings, so the exit code is at least 1
// HOST: fixed 1 finding in 1 file; 0 remain
// Braces nested deeper than clang's limit: it closes the function at the
// error and skips the rest of it and the kernel after it.
// RUN: %python -c "n = 300; open(r'%t/deep.cu', 'w').write('__global__ void deep(int *p) {\n  int v = p[0];\n' + '{' * n + '\n  v += __shfl_down(v, 1);\n' + '}' * n + '\n  p[0] = v;\n}\n__global__ void after(int *p) { p[1] = __shfl_xor(p[1], 1); }\n')"
// RUN: %expect-exit 1 %warpfix --no-cache %t/deep.cu 2>&1 | FileCheck %s --check-prefix=DEEP
// DEEP: deep.cu:4:8: warning: '__shfl_down' is a legacy
// DEEP: deep.cu:4:8: note: not analysed: clang reported an error before it
// DEEP: deep.cu:8:40: warning: '__shfl_xor' is a legacy
// DEEP: deep.cu:8:40: note: not analysed: clang reported an error before it
#define LEGACY_SUM(v) __shfl_down(v, 1)
// CHECK-MESSAGES: k.cu:[[@LINE-1]]:23: warning: '__shfl_down' is a legacy
// CHECK-MESSAGES: k.cu:[[@LINE+11]]:10: note: in this expansion of a macro

__global__ void missing_semicolon(int *p) {
  int v = p[0]
  v += __shfl_down(v, 1);
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:8: warning: '__shfl_down' is a legacy
  // CHECK-MESSAGES: k.cu:[[@LINE-2]]:8: note: not analysed: clang reported an error before it, and its recovery dropped the code that holds this call from the syntax tree; fix the error to have it analysed ({{.*}}k.cu:[[@LINE-3]]:15: expected ';' at end of declaration)
  p[1] = __shfl_xor(p[1], 2);
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:10: warning: '__shfl_xor' is a legacy
  // CHECK-MESSAGES: k.cu:[[@LINE-2]]:10: note: every lane of the warp reaches this call
  // CHECK-MESSAGES: k.cu:[[@LINE-3]]:10: note: no automatic fix: this translation unit has
  p[2] = LEGACY_SUM(p[2]);
}

struct Incomplete;
__device__ int Incomplete::twice(int v) { return __shfl_up(v, 1) * 2; }
// CHECK-MESSAGES: k.cu:[[@LINE-1]]:50: warning: '__shfl_up' is a legacy
// CHECK-MESSAGES: k.cu:[[@LINE-2]]:50: note: not analysed: clang reported an error before it
