// Divergent scan steps that are reported without a fix (issue 15, item 5):
// the rewrite enters the branch a second time after a __syncwarp() outside
// it, so the condition must give the same answer twice, and the barrier's
// mask must be the proven set of lanes that reach the branch.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --checks=-*,warp-missing-syncwarp %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 1 %warpfix --checks=-*,warp-missing-syncwarp --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=FIXED
// RUN: diff %s %t/k.cu
// FIXED: fixed 0 findings in 0 files; 7 remain

__device__ int next_offset(int *k) { return (*k)++; }

// The condition changes a counter: evaluated twice it would differ.
__global__ void guard_side_effect(int *o, const int *in) {
  __shared__ int buf[256];
  int tid = threadIdx.x;
  int lane = tid & 31;
  int k = 1;
  buf[tid] = in[tid];
  __syncwarp();
  int t = buf[tid];
  if (lane >= next_offset(&k)) { t += buf[tid - 1]; buf[tid] = t; }
  // CHECK-MESSAGES: :[[@LINE-1]]:53: warning: lanes of one warp race on shared memory: lane 0 writes buf[0] and lane 1 reads it
  // CHECK-MESSAGES: :[[@LINE-2]]:7: note: no automatic fix: the branch condition has side effects, volatile reads or calls, so it cannot be evaluated again in a ballot
  o[tid] = t;
}

// The condition reads shared memory, which another lane could write between
// the two evaluations.
__global__ void guard_reads_memory(int *o, const int *in, int n) {
  __shared__ int buf[256];
  __shared__ int first;
  int tid = threadIdx.x;
  int lane = tid & 31;
  if (tid == 0)
    first = n;
  buf[tid] = in[tid];
  __syncthreads();
  int t = buf[tid];
  if (lane >= first) { t += buf[tid - 1]; buf[tid] = t; }
  // CHECK-MESSAGES: :[[@LINE-1]]:43: warning: lanes of one warp race on shared memory: lane 0 writes buf[0] and lane 1 reads it
  // CHECK-MESSAGES: :[[@LINE-2]]:7: note: no automatic fix: the __syncwarp() must stand outside this condition, which is then evaluated a second time, and it reads memory or has side effects
  o[tid] = t;
}

// In blocks of one warp, so that the reason above is the one given: in
// larger blocks thread 32 reads buf[31], which the first warp writes.
void launch(int *o, const int *in, int n) {
  guard_reads_memory<<<1, 32>>>(o, in, n);
}

// The condition reads the register that the branch changes.
__global__ void guard_reads_register(int *o, const int *in) {
  __shared__ int buf[256];
  int tid = threadIdx.x;
  int lane = tid & 31;
  buf[tid] = in[tid];
  __syncwarp();
  int t = buf[tid];
  if (lane >= 1 && t > 0) { t += buf[tid - 1]; buf[tid] = t; }
  // CHECK-MESSAGES: :[[@LINE-1]]:48: warning: lanes of one warp race on shared memory: lane 1 writes buf[1] and lane 2 reads it
  // CHECK-MESSAGES: :[[@LINE-2]]:7: note: no automatic fix: the __syncwarp() must stand outside this condition, which is then evaluated a second time, after the branch has changed 't'
  o[tid] = t;
}

// A scan reached by half of each warp, and a read after it made by every
// lane: a barrier of the half that scans does not order the other half.
__global__ void read_by_other_lanes(int *o, const int *in) {
  __shared__ int buf[256];
  int tid = threadIdx.x;
  int lane = tid & 31;
  buf[tid] = in[tid];
  __syncwarp();
  if (lane < 16) {
    int t = buf[tid];
    if (lane >= 1) { t += buf[tid - 1]; buf[tid] = t; }
    // CHECK-MESSAGES: :[[@LINE-1]]:41: warning: lanes of one warp race on shared memory: lane 1 writes buf[1] and lane 0 reads it
    // CHECK-MESSAGES: :[[@LINE+2]]:12: note: no automatic fix: this access may be made by lanes that do not reach the racing write, which a __syncwarp() of the lanes that do would not order
  }
  o[tid] = buf[tid ^ 1];
}

__device__ int scan_two(int *s) {
  int lane = threadIdx.x & 31;
  int t = s[0];
  if (lane >= 1) { t += s[-1]; s[0] = t; }
  // CHECK-MESSAGES: :[[@LINE-1]]:32: warning: lanes of one warp race on shared memory: lane 1 writes sp[1] and lane 3 reads it
  // CHECK-MESSAGES: :[[@LINE+13]]:22: note: no automatic fix: 'scan_two' is called here by only some lanes of the warp (the call is under a lane-dependent branch)
  if (lane >= 2) { t += s[-2]; s[0] = t; }
  // CHECK-MESSAGES: :[[@LINE-1]]:32: warning: lanes of one warp race on shared memory: lane 2 writes sp[2] and lane 4 reads it
  return t;
}

// Only the lanes below a per-thread bound call the scan: which lanes reach
// its steps is unknown, so no mask can be proven.
__global__ void scan_some_lanes(int *o, const int *in, const int *n) {
  extern __shared__ int sp[];
  sp[threadIdx.x] = in[threadIdx.x];
  __syncwarp();
  if (threadIdx.x < n[threadIdx.x])
    o[threadIdx.x] = scan_two(sp + threadIdx.x);
}

// A comment inside the branch would be lost when the branch is written anew.
__global__ void comment_in_branch(int *o, const int *in) {
  __shared__ int buf[256];
  int tid = threadIdx.x;
  int lane = tid & 31;
  buf[tid] = in[tid];
  __syncwarp();
  int t = buf[tid];
  if (lane >= 1) { t += buf[tid - 1]; /* running sum */ buf[tid] = t; }
  // CHECK-MESSAGES: :[[@LINE-1]]:57: warning: lanes of one warp race on shared memory: lane 1 writes buf[1] and lane 2 reads it
  // CHECK-MESSAGES: :[[@LINE-2]]:3: note: no automatic fix: the branch holds comments or preprocessor lines, which the rewrite would drop
  o[tid] = t;
}
