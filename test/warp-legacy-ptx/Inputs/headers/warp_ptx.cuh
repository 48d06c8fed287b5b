// A helper whose only job is the PTX, in a header that several translation
// units include.
#pragma once
__device__ __forceinline__ int shfl_up_add(int x, int offset) {
  int r;
  asm("{ .reg .u32 r0; .reg .pred p;"
      "  shfl.up.b32 r0|p, %1, %2, 0;"
      "  @p add.u32 r0, r0, %1;"
      "  mov.u32 %0, r0; }" : "=r"(r) : "r"(x), "r"(offset));
  return r;
}
