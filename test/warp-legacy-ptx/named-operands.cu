// Named operands (%[x]), which clang CUDA accepts and nvcc 13 does not
// ("symbolic operand reference not supported!"): the new mask operand is
// appended after the named ones and referred to by its number. clang writes
// the PTX of the fixed file and ptxas assembles it.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 0 %warpfix --fix %t/k.cu
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --strict-whitespace --input-file=%t/k.cu
// RUN: %expect-exit 0 %warpfix %t/k.cu
// RUN: %if clang-ptxas %{ %clang-cuda-ptx --cuda-gpu-arch=sm_75 -o %t/k75.ptx %t/k.cu %}
// RUN: %if clang-ptxas %{ %ptxas-check -arch=sm_75 %t/k75.ptx %}
// RUN: %if clang-ptxas %{ %clang-cuda-ptx --cuda-gpu-arch=sm_90 -o %t/k90.ptx %t/k.cu %}
// RUN: %if clang-ptxas %{ %ptxas-check -arch=sm_90 %t/k90.ptx %}

__device__ int scan_step(int partial, int offset) {
  int result;
  asm("{ .reg .u32 r0; .reg .pred p;"
      "  shfl.up.b32 r0|p, %[v], %[o], 0;"
      "  @p add.u32 r0, r0, %[v];"
      "  mov.u32 %[r], r0; }"
      : [r] "=r"(result) : [v] "r"(partial), [o] "r"(offset));
  // CHECK-MESSAGES: :[[@LINE-4]]:10: warning: 'shfl.up.b32' is legacy PTX
  // CHECK-MESSAGES: :[[@LINE-5]]:10: note: every lane of the warp reaches this statement, so the full mask is exact
  return result;
}
// CHECK-FIXES:{{^}}      "  shfl.sync.up.b32 r0|p, %[v], %[o], 0, 0xffffffff;"

__global__ void kernel(int *p, int n) {
  int v = scan_step(p[threadIdx.x], 1);
  int lane = threadIdx.x % 32;
  if (lane < n) {
    asm("shfl.idx.b32 %[out], %[in], %c[src], 0x1f;" : [out] "=r"(v) : [in] "r"(v), [src] "n"(3));
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'shfl.idx.b32' is legacy PTX
    // CHECK-MESSAGES: :[[@LINE-2]]:10: note: only some lanes reach this statement
    // CHECK-MESSAGES: :[[@LINE-3]]:10: note: the mask enters the PTX as the new input operand %3, after the existing operands, whose numbers do not change
  }
  p[threadIdx.x] = v;
}
// CHECK-FIXES:{{^}}  const unsigned [[M:warpfix_mask_[0-9]+]] = __ballot_sync(0xffffffff, lane < n);
// CHECK-FIXES-NEXT:{{^}}  if (lane < n) {
// CHECK-FIXES-NEXT:{{^}}    asm("shfl.sync.idx.b32 %[out], %[in], %c[src], 0x1f, %3;" : [out] "=r"(v) : [in] "r"(v), [src] "n"(3), "r"([[M]]));
