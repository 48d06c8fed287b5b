// A race that threads of different warps take part in is no
// warp-missing-syncwarp fix: a __syncwarp() orders only the lanes of one
// warp. With no launch in sight the block is modelled as two warps, and a
// meeting between them refuses the fix all the same: nothing shows that the
// kernel runs in blocks of one warp. The refusal names the threads, with
// their warps and lanes.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache --checks=-*,warp-missing-syncwarp %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 1 %warpfix --no-cache --checks=-*,warp-missing-syncwarp --fix %t/k.cu
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --strict-whitespace --input-file=%t/k.cu
// RUN: cp %t/k.cu %t/once.cu
// RUN: %expect-exit 1 %warpfix --no-cache --checks=-*,warp-missing-syncwarp --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=IDEMPOTENT
// RUN: diff %t/once.cu %t/k.cu
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/k.cu %}
// IDEMPOTENT: 3 findings in 1 file (0 fixable)

// A block-wide scan in a loop whose last step reads the block's last element:
// the next iteration's load overwrites it, from another warp.
__global__ void scan_total(const int *in, int *out, unsigned n) {
  __shared__ int buf[256];
  int total = 0;
  for (unsigned s = 0; s < n; s += blockDim.x) {
    buf[threadIdx.x] = in[s + threadIdx.x];
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: lanes of one warp race on shared memory: lane 31 of warp 1 writes buf[63] and lane 0 reads it
    // CHECK-MESSAGES: :[[@LINE+10]]:14: note: the other lane reads it here
    // CHECK-MESSAGES: :[[@LINE-3]]:5: note: no automatic fix: threads of different warps meet through these accesses too (thread 63 (warp 1, lane 31) writes buf[63] and thread 0 (warp 0, lane 0) reads it, in a block of two warps, as modelled with no launch in sight), and a __syncwarp() orders only the lanes of one warp
    // CHECK-MESSAGES: :[[@LINE-4]]:5: note: a __syncthreads() between the accesses orders every warp
    __syncthreads();
    for (unsigned d = 1; d < blockDim.x; d <<= 1) {
      int v = threadIdx.x >= d ? buf[threadIdx.x - d] : 0;
      __syncthreads();
      buf[threadIdx.x] += v;
      __syncthreads();
    }
    total += buf[blockDim.x - 1];
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = total;
}
// CHECK-FIXES:{{^}}    total += buf[blockDim.x - 1];
// CHECK-FIXES-NEXT:{{^}}  }

// Softmax's maximum, read by every thread while thread 0 overwrites it; the
// launch's block size is not known here.
__global__ void softmax_row(float *out, const float *in) {
  extern __shared__ float smem[];
  int t = threadIdx.x;
  float x = in[blockIdx.x * blockDim.x + t];
  smem[t] = x;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s) smem[t] = fmaxf(smem[t], smem[t + s]);
    __syncthreads();
  }
  float mx = smem[0];
  smem[t] = x - mx;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: lanes of one warp race on shared memory: lane 0 writes smem[0] and lane 1 reads it
  // CHECK-MESSAGES: :[[@LINE-3]]:14: note: the other lane reads it here
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: no automatic fix: threads of different warps meet through these accesses too (thread 0 (warp 0, lane 0) writes smem[0] and thread 32 (warp 1, lane 0) reads it, in a block of two warps
  // CHECK-MESSAGES: :[[@LINE-4]]:3: note: a __syncthreads() between the accesses
  __syncthreads();
  out[blockIdx.x * blockDim.x + t] = smem[blockDim.x - 1 - t];
}
// CHECK-FIXES:{{^}}  float mx = smem[0];
// CHECK-FIXES-NEXT:{{^}}  smem[t] = x - mx;

// A work queue: thread 0 takes the next block index at the top of each
// iteration while the other warps still read the last one.
__global__ void work_queue(int *out, int *counter, int n) {
  __shared__ int next;
  while (true) {
    if (threadIdx.x == 0)
      next = atomicAdd(counter, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: lanes of one warp race on shared memory: lane 0 writes next and lane 1 reads it
    // CHECK-MESSAGES: :[[@LINE+4]]:13: note: the other lane reads it here
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: no automatic fix: threads of different warps meet through these accesses too (thread 0 (warp 0, lane 0) writes next and thread 32 (warp 1, lane 0) reads it), and a __syncwarp() orders only the lanes of one warp
    // CHECK-MESSAGES: :[[@LINE-4]]:7: note: a __syncthreads() between the accesses
    __syncthreads();
    int b = next;
    if (b >= n)
      break;
    out[b * blockDim.x + threadIdx.x] = b;
  }
}

// Launched in blocks of one warp, the same loop races within the warp only,
// and a __syncwarp() at the end of the body orders it.
__global__ void scan_total_one_warp(const int *in, int *out, unsigned n) {
  __shared__ int buf[32];
  int total = 0;
  for (unsigned s = 0; s < n; s += blockDim.x) {
    buf[threadIdx.x] = in[s + threadIdx.x];
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: lanes of one warp race on shared memory: lane 31 writes buf[31] and lane 0 reads it
    // CHECK-MESSAGES: :[[@LINE+3]]:14: note: the other lane reads it here
    // CHECK-MESSAGES: :[[@LINE+2]]:5: note: a __syncwarp() between the accesses orders them
    __syncthreads();
    total += buf[blockDim.x - 1];
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = total;
}
// CHECK-FIXES:{{^}}    total += buf[blockDim.x - 1];
// CHECK-FIXES-NEXT:{{^}}    __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT:{{^}}  }

void host(const int *in, int *out, float *fo, const float *fi, int *c,
          int rows, int threads) {
  softmax_row<<<rows, threads, threads * sizeof(float)>>>(fo, fi);
  work_queue<<<8, 128>>>(out, c, 100);
  scan_total_one_warp<<<8, 32>>>(in, out, 1024);
}
