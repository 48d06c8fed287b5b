// Where clang's recovery drops a statement, the AST does not hold the asm in
// it. From each error to the end of the declaration that holds it, the
// string literals outside the asm statements that the AST holds are read as
// PTX, and each legacy instruction is reported, with no fix; the ones the
// AST holds are reported once, as usual. A macro's body is code only where
// it expands.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// Braces nested deeper than clang's limit: it closes the function at the
// error and skips the rest of it and the kernel after it.
// RUN: %python -c "n = 300; open(r'%t/deep.cu', 'w').write('__global__ void deep(int *p) {\n  int v = p[0];\n' + '{' * n + '\n  asm(\"shfl.down.b32 %%0, %%0, 1, 0x1f;\" : \"+r\"(v));\n' + '}' * n + '\n  p[0] = v;\n}\n__global__ void after(int *p) { asm(\"vote.all.pred %%0, 1;\" : \"=r\"(p[0])); }\n')"
// RUN: %expect-exit 1 %warpfix --no-cache %t/deep.cu 2>&1 | FileCheck %s --check-prefix=DEEP --implicit-check-not=warning:
// DEEP: deep.cu:4:8: warning: 'shfl.down.b32' is legacy PTX
// DEEP: deep.cu:4:8: note: not analysed: clang reported an error before it
// DEEP: deep.cu:8:38: warning: 'vote.all.pred' is legacy PTX
// DEEP: deep.cu:8:38: note: not analysed: clang reported an error before it
#define LEGACY_UP(v) asm volatile("shfl.up.b32 %0, %0, 1, 0;" : "+r"(v))
// CHECK-MESSAGES: k.cu:[[@LINE-1]]:36: warning: 'shfl.up.b32' is legacy PTX
// CHECK-MESSAGES: k.cu:[[@LINE+12]]:3: note: in this expansion of a macro

__global__ void missing_semicolon(int *p) {
  int v = p[0]
  asm volatile("shfl.down.b32 %0, %0, 1, 0x1f;" : "+r"(v));
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:17: warning: 'shfl.down.b32' is legacy PTX
  // CHECK-MESSAGES: k.cu:[[@LINE-2]]:17: note: not analysed: clang reported an error before it, and its recovery dropped the code that holds this call from the syntax tree; fix the error to have it analysed ({{.*}}k.cu:[[@LINE-3]]:15: expected ';' at end of declaration)
  int w = p[1];
  asm volatile("shfl.bfly.b32 %0, %0, 1, 0x1f;" : "+r"(w));
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:17: warning: 'shfl.bfly.b32' is legacy PTX
  // CHECK-MESSAGES: k.cu:[[@LINE-2]]:17: note: every lane of the warp reaches this statement
  // CHECK-MESSAGES: k.cu:[[@LINE-3]]:17: note: no automatic fix: this translation unit has
  LEGACY_UP(w);
  p[1] = w;
}

struct Incomplete;
__device__ int Incomplete::vote(int v) {
  asm volatile("{ .reg .pred q; setp.ne.s32 q, %1, 0; vote.any.pred q, q; "
               "selp.s32 %0, 1, 0, q; }" : "=r"(v) : "r"(v));
  // CHECK-MESSAGES: k.cu:[[@LINE-2]]:55: warning: 'vote.any.pred' is legacy PTX
  // CHECK-MESSAGES: k.cu:[[@LINE-3]]:55: note: not analysed: clang reported an error before it
  // A string that is not PTX is no finding.
  const char *name = "shuffle.up";
  return v + name[0];
}
