// A lane that returns makes no later access. After `if (c) { ...; return; }`
// only the lanes where c is false go on, and code after an arm that always
// returns is not reached from it. The analysis ran on through returns: the
// CUDA Handbook's single-pass reduction (`if (gridDim.x == 1) { tail(s);
// return; }` then the tree again) paired the tail's reads with the next
// tree's writes, which no run executes together. (The model's grid is one
// block, so the code after that return is not analysed: a guard on gridDim
// taken as possibly true made both arms possible for one lane, and the
// false pairs came back.)
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache --checks=-*,warp-missing-syncwarp %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 0 %warpfix --no-cache --fix %t/k.cu
// RUN: cp %t/k.cu %t/once.cu
// RUN: %expect-exit 0 %warpfix --no-cache --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=IDEMPOTENT
// RUN: diff %t/once.cu %t/k.cu
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/k.cu %}
// IDEMPOTENT: 0 findings in 0 files (0 fixable)

template <unsigned Threads> __device__ void tree(int *out, volatile int *s) {
  int tid = threadIdx.x;
  if (Threads >= 128) {
    if (tid < 64)
      s[tid] += s[tid + 64];
    __syncthreads();
  }
  if (tid < 32) {
    s[tid] += s[tid + 16];
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: lanes of one warp race on shared memory: lane 16 writes s[16] and lane 0 reads it
    s[tid] += s[tid + 8];
    // CHECK-MESSAGES: :[[@LINE-1]]:5: note: the same rewrite orders this race too: lane 8 writes s[8] and lane 0 reads it
    if (tid == 0)
      *out = s[0];
  }
}

template <unsigned Threads>
__global__ void single_pass(int *out, int *partial, const int *in) {
  __shared__ int s[Threads];
  int tid = threadIdx.x;
  s[tid] = in[blockIdx.x * Threads + tid];
  __syncthreads();
  if (gridDim.x == 1) {
    tree<Threads>(out, s);
    return;
  }
  tree<Threads>(&partial[blockIdx.x], s);
}

// Not reported: the upper half-warp has returned before the lower half
// reads its elements.
__global__ void half_return(int *out, const int *in) {
  __shared__ int s[64];
  int lane = threadIdx.x & 31;
  s[threadIdx.x] = in[threadIdx.x];
  __syncwarp();
  if (lane >= 16)
    return;
  s[threadIdx.x] += s[threadIdx.x + 16];
  out[threadIdx.x] = s[threadIdx.x];
}

void launch(int *out, int *partial, const int *in) {
  single_pass<128><<<4, 128>>>(out, partial, in);
  half_return<<<1, 64>>>(out, in);
}
