// Races reported without a fix, and why.
// RUN: %{copy-to-k}
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
  // CHECK-MESSAGES: :[[@LINE-2]]:5: note: no automatic fix: the racing read and write are in one statement; read into a register, __syncwarp(), then write (Using CUDA Warp-Level Primitives, listing 8)
  p[t] = s[t];
}

// Lanes store different values to one shared scalar in one statement: which
// one it keeps is undefined, and a barrier would not change that. Stores of
// different constants to it race too.
__global__ void last_writer_wins(int *p) {
  __shared__ int winner;
  winner = threadIdx.x;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: lanes of one warp race on shared memory: lane 0 writes winner and lane 1 writes it
  // CHECK-MESSAGES: :[[@LINE-2]]:3: note: no automatic fix: lanes write the element in one statement, so which lane's value it keeps is undefined, with or without a __syncwarp()
  __syncthreads();
  if (threadIdx.x % 2)
    winner = 1;
  else
    winner = 2;
  // CHECK-MESSAGES: :[[@LINE-3]]:5: warning: lanes of one warp race on shared memory: lane 1 writes winner and lane 0 writes it
  // CHECK-MESSAGES: :[[@LINE-4]]:5: note: no automatic fix: no single place separates the racing accesses
  // CHECK-MESSAGES: :[[@LINE-3]]:5: warning: lanes of one warp race on shared memory: lane 0 writes winner and lane 1 writes it
  __syncthreads();
  p[threadIdx.x] = winner;
}

// In blocks of one warp, so that the reasons above are the ones given: in
// larger blocks the warps meet at `winner` too (across-warps.cu).
void launch(int *p) { last_writer_wins<<<1, 32>>>(p); }
