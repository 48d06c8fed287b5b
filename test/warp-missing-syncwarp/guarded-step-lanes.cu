// A guarded step `if (c) { s[i] = s[i + k]; }` whose racing reads lie
// outside the branch (the next step's condition reads the element): a
// ballot of c and barriers inside the branch would order only the lanes
// that took it, and a lane that skipped it reads the element unordered. The
// barriers must stand where the writing and the reading lanes both reach
// them, and c reads shared memory, so it cannot be evaluated again around
// them: no fix.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache --checks=-*,warp-missing-syncwarp %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 1 %warpfix --no-cache --checks=-*,warp-missing-syncwarp --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=UNCHANGED
// RUN: diff %s %t/k.cu
// UNCHANGED: fixed 0 findings in 0 files; 7 remain

__global__ void min_error(float *out, const float *in) {
  __shared__ float errors[64];
  int idx = threadIdx.x;
  errors[idx] = in[blockIdx.x * 64 + idx];
  __syncthreads();
  if (idx < 32) {
    if (errors[idx + 16] < errors[idx]) { errors[idx] = errors[idx + 16]; }
    if (errors[idx + 8] < errors[idx]) { errors[idx] = errors[idx + 8]; }
    if (errors[idx + 4] < errors[idx]) { errors[idx] = errors[idx + 4]; }
    if (errors[idx + 2] < errors[idx]) { errors[idx] = errors[idx + 2]; }
    if (errors[idx + 1] < errors[idx]) { errors[idx] = errors[idx + 1]; }
  }
  if (idx == 0) out[blockIdx.x] = errors[0];
}
// CHECK-MESSAGES: :20:43: warning: lanes of one warp race on shared memory: lane 16 writes errors[16] and lane 0 reads it
// CHECK-MESSAGES: :20:43: note: no automatic fix: the lanes that reach the barrier the fix needs are decided by a condition that reads memory, or that a loop around it changes, so they may differ between the ballot and the branch, or from one iteration to the next; a barrier of one time's lanes does not order a lane that took the branch at another
// CHECK-MESSAGES: :21:42: warning: lanes of one warp race on shared memory: lane 8 writes errors[8] and lane 0 reads it
// CHECK-MESSAGES: :21:42: note: no automatic fix: the lanes that reach the barrier the fix needs are decided by a condition that reads memory
// CHECK-MESSAGES: :22:42: warning: lanes of one warp race on shared memory: lane 4 writes errors[4] and lane 0 reads it
// CHECK-MESSAGES: :22:42: note: no automatic fix: the lanes that reach the barrier the fix needs are decided by a condition that reads memory
// CHECK-MESSAGES: :23:42: warning: lanes of one warp race on shared memory: lane 2 writes errors[2] and lane 0 reads it
// CHECK-MESSAGES: :23:42: note: no automatic fix: the lanes that reach the barrier the fix needs are decided by a condition that reads memory
// CHECK-MESSAGES: :24:42: warning: lanes of one warp race on shared memory: lane 1 writes errors[1] and lane 0 reads it
// CHECK-MESSAGES: :24:42: note: no automatic fix: the lanes that reach the barrier the fix needs are decided by a condition that reads memory

// The guard reads only registers, but every lane reads the chain's elements
// after the branch: lanes 16 to 31, which skip it, meet no barrier of the
// lanes that take it.
__global__ void half_chain(int *out, const int *in) {
  __shared__ int s[32];
  int lane = threadIdx.x & 31;
  s[lane] = in[lane];
  __syncwarp();
  if (lane < 16) {
    s[lane] += s[lane + 8];
    s[lane] += s[lane + 4];
  }
  out[lane] = s[(lane + 1) & 15];
}
void launch(int *o, const int *i) { half_chain<<<1, 32>>>(o, i); }
// CHECK-MESSAGES: :[[@LINE-6]]:5: warning: lanes of one warp race on shared memory: lane 8 writes s[8] and lane 0 reads it
// CHECK-MESSAGES: :[[@LINE-4]]:15: note: no automatic fix: this access may be made by lanes that do not reach the barrier the fix needs, which a __syncwarp() of the lanes that do would not order; the barriers must stand where the writing and the other lanes both reach them
// CHECK-MESSAGES: :[[@LINE-7]]:5: warning: lanes of one warp race on shared memory: lane 4 writes s[4] and lane 0 reads it
// CHECK-MESSAGES: :[[@LINE-6]]:15: note: no automatic fix: this access may be made by lanes that do not reach the barrier
