// nvcc accepts PTX special registers with a single '%' in extended asm
// (old CUB's util_ptx.cuh: `asm("mov.u32 %0, %laneid;" : "=r"(ret))`);
// clang rejects them ("invalid % escape"). warpfix shows clang each such
// template with the '%' doubled, in place of a blank that PTX does not need,
// so that every offset is that of the file on disk: the unit parses clean,
// and the code around it is fixed. A template with no blank to spare stays
// an error, as before; basic asm, templates already written with '%%', and
// comments are left alone. No fix may edit a template shown that way. The
// file on disk keeps its single '%'.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning: --implicit-check-not=error:
// RUN: %expect-exit 1 %warpfix --no-cache --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=SUMMARY
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --strict-whitespace --input-file=%t/k.cu
// RUN: cp %t/k.cu %t/once.cu
// RUN: %expect-exit 1 %warpfix --no-cache --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=AGAIN
// RUN: diff %t/once.cu %t/k.cu
// nvcc compiles the fixed file, single '%' and all, once the two findings
// that warpfix leaves are written by hand:
// RUN: sed -e 's/__shfl_xor(v, 1)/__shfl_xor_sync(0xffffffff, v, 1)/' -e 's/shfl.down.b32 %%0, %%1, 1, 0x1f;/shfl.sync.down.b32 %%0, %%1, 1, 0x1f, 0xffffffff;/' %t/k.cu > %t/by-hand.cu
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/by-hand.cu %}
// SUMMARY: translation units: 0 analysed clean, 1 analysed with errors
// SUMMARY: fixed 1 finding in 1 file; 2 remain
// AGAIN: fixed 0 findings in 0 files; 2 remain

// clang's messages come first: the one template it still rejects.
// CHECK-MESSAGES: k.cu:74:21: error: invalid % escape in inline assembly string

// CUB's lane id: the escaped template parses, and the kernel is fixed.
__device__ unsigned lane_id() {
  unsigned ret;
  asm("mov.u32 %0, %laneid;" : "=r"(ret));
  // CHECK-FIXES:  asm("mov.u32 %0, %laneid;" : "=r"(ret));
  return ret;
}

// Two registers, two blanks after commas; one already escaped.
__device__ unsigned warp_and_mask() {
  unsigned w, m;
  asm volatile("mov.u32 %0, %warpid;\n\tmov.u32 %1, %%lanemask_lt;"
               : "=r"(w), "=r"(m));
  return w ^ m;
}

// Basic asm reads no operands, so a single '%' is no error there.
__device__ void basic() { asm volatile("membar.cta;"); }

// asm("mov.u32 %0, %laneid;" : "=r"(x)) in a comment is not code.

// The legacy shuffle next to a register in one template: reported, but the
// fix would edit the escaped template.
__device__ int legacy_ptx(int v) {
  int r;
  asm("shfl.down.b32 %0, %1, 1, 0x1f;\n\tmov.u32 %0, %laneid;"
      : "=r"(r) : "r"(v));
  // CHECK-MESSAGES: k.cu:[[@LINE-2]]:8: warning: 'shfl.down.b32' is legacy PTX without .sync
  // CHECK-MESSAGES: k.cu:[[@LINE-3]]:8: note: no automatic fix: the fix would edit an asm template in which warpfix showed clang each single-'%' special register (nvcc's dialect) with '%%'
  return r;
}
// CHECK-FIXES:  asm("shfl.down.b32 %0, %1, 1, 0x1f;\n\tmov.u32 %0, %laneid;"

__global__ void uses_them(int *p) {
  int v = p[threadIdx.x] + lane_id() + warp_and_mask();
  v += __shfl_down(v, 1);
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:8: warning: '__shfl_down' is a legacy warp intrinsic
  // CHECK-MESSAGES: k.cu:[[@LINE-2]]:8: note: every lane of the warp reaches this call, so the full mask is exact
  p[threadIdx.x] = legacy_ptx(v);
}
// CHECK-FIXES:  v += __shfl_down_sync(0xffffffff, v, 1);

// No blank to spare: clang still rejects it, and the function that holds it
// is not fixed (the error taints only it and its callers).
__device__ unsigned tight() {
  unsigned l;
  asm("mov.u32 %0,%laneid;" : "=r"(l));
  return l;
}
__global__ void uses_tight(int *p) {
  int v = p[threadIdx.x] + tight();
  v += __shfl_xor(v, 1);
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:8: warning: '__shfl_xor' is a legacy warp intrinsic
  // CHECK-MESSAGES: k.cu:[[@LINE-2]]:8: note: no automatic fix: this translation unit has 1 error, one of them in 'tight', which this code calls
  p[threadIdx.x] = v;
}
