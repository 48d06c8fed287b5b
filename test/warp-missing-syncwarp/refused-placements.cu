// Races that warpfix reports but cannot fix with a __syncwarp().
// RUN: %expect-exit 1 %warpfix --no-cache --checks=-*,warp-missing-syncwarp %s 2>&1 | FileCheck %s --implicit-check-not=warning:
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache --fix %t/k.cu
// RUN: diff %s %t/k.cu

struct Slot {
  int key;
  int value;
};

// __syncwarp() is device code: a __host__ __device__ helper that calls it
// does not compile for the host.
__host__ __device__ int trade(Slot &mine, const Slot &peer, int key, int value) {
  mine.key = key;
  // CHECK: :[[@LINE+2]]:3: warning: lanes of one warp race on shared memory: lane 0 writes slots[0].value and lane 1 reads it
  // CHECK: :[[@LINE+1]]:3: note: no automatic fix: the access is in 'trade', a __host__ __device__ function, where a __syncwarp() does not compile for the host
  mine.value = value;
  return peer.value;
}

__global__ void tradeKernel(const int *in, int *out) {
  __shared__ Slot slots[64];
  unsigned t = threadIdx.x;
  out[t] = trade(slots[t], slots[t ^ 1], t, in[t]);
}

// A chain over a bit-field: a register would keep the bits the field drops
// at each step.
struct Quotient {
  int q : 5;
  int spare : 3;
};

__global__ void bitFieldChain(int *out) {
  __shared__ Quotient cells[64];
  unsigned t = threadIdx.x;
  cells[t].q = out[t];
  __syncwarp();
  if (t < 16) {
    // CHECK: :[[@LINE+2]]:5: warning: lanes of one warp race on shared memory: lane 8 writes cells[8].q and lane 0 reads it
    // CHECK: :[[@LINE+1]]:5: note: no automatic fix: the element is a bit-field, and a register that carries its value from step to step would keep the bits that the field drops at each store
    cells[t].q /= cells[t + 8].q;
  }
  out[t] = cells[t].q;
}

// The condition reads the partner's flag and the branch clears the lane's
// own: only a barrier between the test and the branch orders them, and the
// test is part of the branch. (Across the back edge a barrier at the end of
// the body would do, but not within one round.)
__global__ void conditionAndBranch(const int *in, int *out) {
  __shared__ int flags[64];
  unsigned t = threadIdx.x;
  flags[t] = in[t];
  __syncwarp();
  int got = 0;
  for (int round = 0; round < 3; ++round) {
    if (flags[t ^ 1] > round) {
      got += round;
      // CHECK: :[[@LINE+2]]:7: warning: lanes of one warp race on shared memory: lane 0 writes flags[0] and lane 1 reads it
      // CHECK: :[[@LINE+1]]:7: note: no automatic fix: no single place separates the racing accesses
      flags[t] = 0;
    }
  }
  out[t] = got;
}
// The barrier between one iteration's write and the next one's read would
// stand at the end of the body, which the (warp-uniform) continue skips.
__global__ void skipping(const int *in, int *out, int n) {
  __shared__ int s[64][32];
  unsigned w = threadIdx.x / 32;
  unsigned lane = threadIdx.x & 31;
  int acc = 0;
  for (int r = 0; r < n; ++r) {
    acc += s[w][lane ^ 1];
    // CHECK: :[[@LINE+4]]:5: warning: lanes of one warp race on shared memory: lane 0 writes s[0][0] and lane 1 reads it
    // CHECK: :[[@LINE+2]]:7: note: no automatic fix: the barrier that orders one iteration's accesses before the next one's would stand at the end of the loop body, which this continue skips
    if (__any_sync(0xffffffff, acc > 100))
      continue;
    s[w][lane] = in[r * 32 + lane];
  }
  out[threadIdx.x] = acc;
}

// CHECK: 4 findings in 1 file (0 fixable)
