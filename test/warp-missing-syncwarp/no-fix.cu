// Races reported without a fix, and why.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/k.cu
// RUN: %expect-exit 1 %warpfix --checks=-*,warp-missing-syncwarp %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 1 %warpfix --checks=-*,warp-missing-syncwarp --fix %t/k.cu
// RUN: diff %s %t/k.cu

// An accumulation whose operand has a side effect is not rewritten into a
// register: evaluating it elsewhere would change what it does.
__global__ void side_effect(int *p, int *counter) {
  __shared__ int s[64];
  int t = threadIdx.x;
  s[t] = p[t];
  __syncthreads();
  if (t < 32)
    s[t] += s[t + 1] + atomicAdd(counter, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: lanes of one warp race on shared memory: lane 1 writes s[1] and lane 0 reads it
  // CHECK-MESSAGES: :[[@LINE-2]]:5: note: no automatic fix: the racing read and write are in one statement; read into a register, __syncwarp(), then write (seed 000, listing 8)
  p[t] = s[t];
}
