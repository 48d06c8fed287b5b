// The SDK reduction's warp-synchronous tail reads and writes shared memory in
// one statement, through the register it already has: it is split as seed
// 000's listing 8 does, keeping that register (issue 15, item 5). An
// assignment that recomputes the element from itself gets a fresh register.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 0 %warpfix --fix %t/k.cu
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --input-file=%t/k.cu
// RUN: cp %t/k.cu %t/once.cu
// RUN: %expect-exit 0 %warpfix --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=IDEMPOTENT
// RUN: diff %t/once.cu %t/k.cu
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/k.cu %}
// IDEMPOTENT: 0 findings in 0 files (0 fixable)
template <unsigned blockSize>
__global__ void reduce5(const int *g_idata, int *g_odata, unsigned n) {
  extern __shared__ int sdata[];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * (blockSize * 2) + threadIdx.x;
  int mySum = (i < n) ? g_idata[i] : 0;
  sdata[tid] = mySum;
  __syncthreads();
  if (tid < 32) {
    volatile int *smem = sdata;
    if (blockSize >= 64) smem[tid] = mySum = mySum + smem[tid + 32];
    if (blockSize >= 32) smem[tid] = mySum = mySum + smem[tid + 16];
    if (blockSize >= 16) smem[tid] = mySum = mySum + smem[tid + 8];
    if (blockSize >= 8) smem[tid] = mySum = mySum + smem[tid + 4];
    if (blockSize >= 4) smem[tid] = mySum = mySum + smem[tid + 2];
    if (blockSize >= 2) smem[tid] = mySum = mySum + smem[tid + 1];
  }
  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}
template __global__ void reduce5<256>(const int *, int *, unsigned);

__global__ void tail_without_guards(const int *g, int *o) {
  extern __shared__ int sdata[];
  unsigned tid = threadIdx.x;
  int mySum = g[tid];
  sdata[tid] = mySum;
  __syncthreads();
  if (tid < 32) {
    volatile int *smem = sdata;
    smem[tid] = mySum = mySum + smem[tid + 32];
    smem[tid] = mySum = mySum + smem[tid + 16];
  }
  if (tid == 0) o[blockIdx.x] = sdata[0];
}

__global__ void max_tail(float *o, const float *in) {
  __shared__ float s[64];
  int t = threadIdx.x;
  s[t] = in[t];
  __syncwarp();
  if (t < 16) {
    s[t] = fmaxf(s[t], s[t + 16]);
    s[t] = fmaxf(s[t], s[t + 8]);
  }
  o[t] = s[t];
}

// CHECK-MESSAGES: :24:26: warning: lanes of one warp race on shared memory: lane 1 writes sdata[1] and lane 0 reads it with no __syncwarp() between them (Using CUDA Warp-Level Primitives, listing 7); volatile does not order accesses between lanes
// CHECK-MESSAGES: :25:54: note: the other lane reads it here
// CHECK-MESSAGES: :26:54: note: the other lane reads it here
// CHECK-MESSAGES: :27:53: note: the other lane reads it here
// CHECK-MESSAGES: :28:53: note: the other lane reads it here
// CHECK-MESSAGES: :29:53: note: the other lane reads it here
// CHECK-MESSAGES: :24:5: note: each lane now reads into a register, all lanes synchronise, then each writes its own element (Using CUDA Warp-Level Primitives, listing 8)
// CHECK-MESSAGES: :24:5: note: every lane of the warp reaches this statement, so the full mask is exact
// CHECK-MESSAGES: :24:5: note: this assumes blocks are made of whole warps (blockDim.x a multiple of 32); pass --assume-whole-warps=false if they are not
// CHECK-MESSAGES: :25:26: note: the same rewrite orders this race too: lane 16 writes sdata[16] and lane 0 reads it
// CHECK-MESSAGES: :26:26: note: the same rewrite orders this race too: lane 8 writes sdata[8] and lane 0 reads it
// CHECK-MESSAGES: :27:25: note: the same rewrite orders this race too: lane 4 writes sdata[4] and lane 0 reads it
// CHECK-MESSAGES: :28:25: note: the same rewrite orders this race too: lane 2 writes sdata[2] and lane 0 reads it
// CHECK-MESSAGES: :29:25: note: the same rewrite orders this race too: lane 1 writes sdata[1] and lane 0 reads it
// CHECK-MESSAGES: :43:5: warning: lanes of one warp race on shared memory: lane 16 writes sdata[16] and lane 0 reads it with no __syncwarp() between them (Using CUDA Warp-Level Primitives, listing 7); volatile does not order accesses between lanes
// CHECK-MESSAGES: :44:33: note: the other lane reads it here
// CHECK-MESSAGES: :43:5: note: each lane now reads into a register, all lanes synchronise, then each writes its own element (Using CUDA Warp-Level Primitives, listing 8)
// CHECK-MESSAGES: :43:5: note: every lane of the warp reaches this statement, so the full mask is exact
// CHECK-MESSAGES: :43:5: note: this assumes blocks are made of whole warps (blockDim.x a multiple of 32); pass --assume-whole-warps=false if they are not
// CHECK-MESSAGES: :44:5: note: the same rewrite orders this race too: lane 16 writes sdata[16] and lane 0 reads it
// CHECK-MESSAGES: :55:5: warning: lanes of one warp race on shared memory: lane 8 writes s[8] and lane 0 reads it with no __syncwarp() between them (Using CUDA Warp-Level Primitives, listing 7)
// CHECK-MESSAGES: :56:24: note: the other lane reads it here
// CHECK-MESSAGES: :55:5: note: each lane now reads into a register, all lanes synchronise, then each writes its own element (Using CUDA Warp-Level Primitives, listing 8)
// CHECK-MESSAGES: :55:5: note: only some lanes reach this statement; the mask is a ballot of the branch conditions, taken before the branch (Using CUDA Warp-Level Primitives, listing 3)
// CHECK-MESSAGES: :56:5: note: the same rewrite orders this race too: lane 8 writes s[8] and lane 0 reads it
// CHECK-FIXES: if (blockSize >= 64) { mySum = mySum + smem[tid + 32]; __syncwarp(0xffffffff); smem[tid] = mySum; __syncwarp(0xffffffff); }
// CHECK-FIXES-NEXT: if (blockSize >= 32) { mySum = mySum + smem[tid + 16]; __syncwarp(0xffffffff); smem[tid] = mySum; __syncwarp(0xffffffff); }
// CHECK-FIXES-NEXT: if (blockSize >= 16) { mySum = mySum + smem[tid + 8]; __syncwarp(0xffffffff); smem[tid] = mySum; __syncwarp(0xffffffff); }
// CHECK-FIXES-NEXT: if (blockSize >= 8) { mySum = mySum + smem[tid + 4]; __syncwarp(0xffffffff); smem[tid] = mySum; __syncwarp(0xffffffff); }
// CHECK-FIXES-NEXT: if (blockSize >= 4) { mySum = mySum + smem[tid + 2]; __syncwarp(0xffffffff); smem[tid] = mySum; __syncwarp(0xffffffff); }
// CHECK-FIXES-NEXT: if (blockSize >= 2) { mySum = mySum + smem[tid + 1]; __syncwarp(0xffffffff); smem[tid] = mySum; __syncwarp(0xffffffff); }
// CHECK-FIXES: mySum = mySum + smem[tid + 32];
// CHECK-FIXES-NEXT: __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT: smem[tid] = mySum;
// CHECK-FIXES-NEXT: __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT: mySum = mySum + smem[tid + 16];
// CHECK-FIXES-NEXT: __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT: smem[tid] = mySum;
// CHECK-FIXES-NEXT: __syncwarp(0xffffffff);
// CHECK-FIXES: const unsigned warpfix_mask_54 = __ballot_sync(0xffffffff, t < 16);
// CHECK-FIXES: auto warpfix_acc_55 = s[t];
// CHECK-FIXES-NEXT: warpfix_acc_55 = fmaxf(s[t], s[t + 16]);
// CHECK-FIXES-NEXT: __syncwarp(warpfix_mask_54);
// CHECK-FIXES-NEXT: s[t] = warpfix_acc_55;
// CHECK-FIXES-NEXT: __syncwarp(warpfix_mask_54);
// CHECK-FIXES-NEXT: warpfix_acc_55 = fmaxf(s[t], s[t + 8]);
// CHECK-FIXES-NEXT: __syncwarp(warpfix_mask_54);
// CHECK-FIXES-NEXT: s[t] = warpfix_acc_55;
// CHECK-FIXES-NEXT: __syncwarp(warpfix_mask_54);
