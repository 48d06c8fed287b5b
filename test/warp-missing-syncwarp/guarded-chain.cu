// A listing-8 rewrite under a lane-dependent guard keeps its barriers outside
// the guard: lanes that skip a barrier inside it would meet the next one
// instead, and leave the loop early (issue 13, pattern 5). The guard is
// evaluated again around the write, so it may only read registers.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 1 %warpfix --fix %t/k.cu
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --input-file=%t/k.cu
// RUN: cp %t/k.cu %t/once.cu
// RUN: %expect-exit 1 %warpfix --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=IDEMPOTENT
// RUN: diff %t/once.cu %t/k.cu
// IDEMPOTENT: 2 findings in 1 file (0 fixable)
__global__ void scan(int *o, const int *in) {
  __shared__ int s[256];
  int tid = threadIdx.x;
  int lane = tid & 31;
  s[tid] = in[tid];
  __syncwarp();
  for (int offset = 1; offset < 32; offset *= 2) {
    if (lane >= offset) s[tid] += s[tid - offset];
  }
  o[tid] = s[tid];
}

__global__ void reduce_steps(int *o, const int *in) {
  __shared__ int s[256];
  int tid = threadIdx.x;
  int lane = tid & 31;
  s[tid] = in[tid];
  __syncwarp();
  if (lane < 16) s[tid] += s[tid + 16];
  if (lane < 8) s[tid] += s[tid + 8];
  if (lane < 4) s[tid] += s[tid + 4];
  if (lane < 2) s[tid] += s[tid + 2];
  if (lane < 1) s[tid] += s[tid + 1];
  o[tid] = s[tid];
}

// The guard reads shared memory that the chain writes: evaluated a second
// time it could differ.
__global__ void guard_reads_memory(int *o, const int *in) {
  __shared__ int s[256];
  int tid = threadIdx.x;
  s[tid] = in[tid];
  __syncwarp();
  if (s[tid] > 0) s[tid] += s[tid + 1];
  o[tid] = s[tid];
}

// In blocks of one warp, so that the reason above is the one given: in
// larger blocks thread 31 reads s[32], which the next warp writes.
void launch(int *o, const int *in) { guard_reads_memory<<<1, 32>>>(o, in); }

// An unbraced loop body: no place for the ballot, so no fix; the reason
// says so.
__global__ void scan_unbraced(int *o, const int *in) {
  __shared__ int s[256];
  int tid = threadIdx.x;
  int lane = tid & 31;
  s[tid] = in[tid];
  __syncwarp();
  for (int offset = 1; offset < 32; offset *= 2)
    if (lane >= offset)
      s[tid] += s[tid - offset];
  o[tid] = s[tid];
}

// CHECK-MESSAGES: :20:25: warning: lanes of one warp race on shared memory: lane 1 writes s[1] and lane 2 reads it with no __syncwarp() between them (Using CUDA Warp-Level Primitives, listing 7)
// CHECK-MESSAGES: :20:5: note: each lane now reads into a register, all lanes synchronise, then each writes its own element (Using CUDA Warp-Level Primitives, listing 8)
// CHECK-MESSAGES: :20:5: note: every lane of the warp reaches this statement, so the full mask is exact
// CHECK-MESSAGES: :31:18: warning: lanes of one warp race on shared memory: lane 1 writes s[1] and lane 0 reads it with no __syncwarp() between them (Using CUDA Warp-Level Primitives, listing 7)
// CHECK-MESSAGES: :32:27: note: the other lane reads it here
// CHECK-MESSAGES: :33:27: note: the other lane reads it here
// CHECK-MESSAGES: :34:27: note: the other lane reads it here
// CHECK-MESSAGES: :35:27: note: the other lane reads it here
// CHECK-MESSAGES: :31:3: note: each lane now reads into a register, all lanes synchronise, then each writes its own element (Using CUDA Warp-Level Primitives, listing 8)
// CHECK-MESSAGES: :31:3: note: every lane of the warp reaches this statement, so the full mask is exact
// CHECK-MESSAGES: :32:17: note: the same rewrite orders this race too: lane 1 writes s[1] and lane 0 reads it
// CHECK-MESSAGES: :33:17: note: the same rewrite orders this race too: lane 1 writes s[1] and lane 0 reads it
// CHECK-MESSAGES: :34:17: note: the same rewrite orders this race too: lane 1 writes s[1] and lane 0 reads it
// CHECK-MESSAGES: :46:19: warning: lanes of one warp race on shared memory: lane 1 writes s[1] and lane 0 reads it with no __syncwarp() between them (Using CUDA Warp-Level Primitives, listing 7)
// CHECK-MESSAGES: :46:7: note: no automatic fix: the __syncwarp() must stand outside this condition, which is then evaluated a second time, and it reads memory or has side effects
// CHECK-MESSAGES: :64:7: warning: lanes of one warp race on shared memory: lane 1 writes s[1] and lane 2 reads it with no __syncwarp() between them (Using CUDA Warp-Level Primitives, listing 7)
// CHECK-MESSAGES: :63:5: note: no automatic fix: the branch is the unbraced body of a loop, switch or label; add braces so that a mask can be computed before it
// CHECK-FIXES: auto warpfix_acc_20 = s[tid];
// CHECK-FIXES-NEXT: if (lane >= offset) warpfix_acc_20 += s[tid - offset];
// CHECK-FIXES-NEXT: __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT: if (lane >= offset) s[tid] = warpfix_acc_20;
// CHECK-FIXES-NEXT: __syncwarp(0xffffffff);
// CHECK-FIXES: auto warpfix_acc_31 = s[tid];
// CHECK-FIXES-NEXT: if (lane < 16) warpfix_acc_31 += s[tid + 16];
// CHECK-FIXES-NEXT: __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT: if (lane < 16) s[tid] = warpfix_acc_31;
// CHECK-FIXES-NEXT: __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT: if (lane < 8) warpfix_acc_31 += s[tid + 8];
// CHECK-FIXES-NEXT: __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT: if (lane < 8) s[tid] = warpfix_acc_31;
// CHECK-FIXES-NEXT: __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT: if (lane < 4) warpfix_acc_31 += s[tid + 4];
// CHECK-FIXES-NEXT: __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT: if (lane < 4) s[tid] = warpfix_acc_31;
// CHECK-FIXES-NEXT: __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT: if (lane < 2) warpfix_acc_31 += s[tid + 2];
// CHECK-FIXES-NEXT: __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT: if (lane < 2) s[tid] = warpfix_acc_31;
// CHECK-FIXES-NEXT: __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT: if (lane < 1) warpfix_acc_31 += s[tid + 1];
// CHECK-FIXES-NEXT: __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT: if (lane < 1) s[tid] = warpfix_acc_31;
// CHECK-FIXES-NEXT: __syncwarp(0xffffffff);
