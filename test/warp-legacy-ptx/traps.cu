// What must not change: PTX that already has .sync, legacy text in C++ and
// PTX comments or in strings that are not asm, host code, HIP branches, and
// words that merely start like the instructions. ptxas accepts the file as
// it is, which shows that none of the legacy text reaches it.
// RUN: %{copy-to-k}
// RUN: %warpfix %t/k.cu 2>&1 | FileCheck %s --implicit-check-not=warning:
// RUN: %warpfix --fix %t/k.cu
// RUN: diff %s %t/k.cu
// RUN: %if nvcc %{ %nvcc-check -arch=sm_75 %t/k.cu %}
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/k.cu %}
// CHECK: 0 findings in 0 files (0 fixable)

// asm("shfl.up.b32 %0, %1, 1, 0;" : "=r"(r) : "r"(v));   legacy, but a comment
/* vote.ballot.b32 %0, 1; */

__device__ const char *const Names[] = {"shfl.up.b32", "vote.any.pred"};

__global__ void already_sync(unsigned *p) {
  unsigned v = p[threadIdx.x], r, a, m, b, s;
  asm("shfl.sync.down.b32 %0, %1, 1, 0x1f, 0xffffffff;" : "=r"(r) : "r"(v));
  // .sync after the mode, as old CUB wrote it: ptxas takes either order.
  asm("{ .reg .pred q; setp.ne.u32 q, %1, 0; vote.ballot.sync.b32 %0, q, 0xffffffff; }"
      : "=r"(b) : "r"(v));
  asm("shfl.down.sync.b32 %0, %1, 1, 0x1f, 0xffffffff;" : "=r"(s) : "r"(v));
  asm("{ .reg .pred q; setp.ne.u32 q, %1, 0; vote.sync.ballot.b32 %0, q, 0xffffffff; }"
      : "=r"(a) : "r"(v));
  asm volatile("bar.warp.sync 0xffffffff;" ::: "memory");
  asm("match.any.sync.b32 %0, %1, 0xffffffff;" : "=r"(m) : "r"(v));
  p[threadIdx.x] = r + a + m + b + s + (Names[0][0] == 's');
}

__global__ void comments_in_ptx(unsigned *p) {
  unsigned v = p[threadIdx.x], r;
  asm("// shfl.up.b32 was the old way\n\t"
      "/* vote.all.pred too */ shfl.sync.up.b32 %0, %1, 1, 0, 0xffffffff;"
      : "=r"(r) : "r"(v));
  p[threadIdx.x] = r;
}

__global__ void lookalikes(unsigned *p) {
  unsigned v = p[threadIdx.x], r;
  // A register named vote and a label named shfl_up: operands and labels,
  // not instructions.
  asm("{ .reg .pred vote; setp.ne.u32 vote, %1, 0; selp.u32 %0, 1, 0, vote;\n\t"
      "shfl_up: }" : "=r"(r) : "r"(v));
  p[threadIdx.x] = r;
}

// Host code holds the host's assembly, whatever it spells.
inline __host__ unsigned host_side() {
  unsigned r;
  asm("vote.ballot.b32 %0, 1;" : "=r"(r));
  return r;
}

__global__ void hip_branch(unsigned *p) {
  unsigned v = p[threadIdx.x];
#ifdef __HIP_PLATFORM_AMD__
  asm("shfl.up.b32 %0, %0, 1, 0;" : "+r"(v));
#endif
  p[threadIdx.x] = v;
}
