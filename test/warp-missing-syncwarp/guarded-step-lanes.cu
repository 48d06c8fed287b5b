// A guarded step `if (c) { s[i] = s[i + k]; }` whose racing reads lie
// outside the branch (the next step's condition reads the element): a
// ballot of c and barriers inside the branch would order only the lanes
// that took it, and a lane that skipped it reads the element unordered. The
// barriers must stand where the writing and the reading lanes both reach
// them, and c reads shared memory, so it cannot be evaluated again around
// them: no fix.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/k.cu
// RUN: %expect-exit 1 %warpfix --no-cache --checks=-*,warp-missing-syncwarp %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 1 %warpfix --no-cache --checks=-*,warp-missing-syncwarp --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=UNCHANGED
// RUN: diff %s %t/k.cu
// UNCHANGED: fixed 0 findings in 0 files; 5 remain

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
// CHECK-MESSAGES: :20:9: note: no automatic fix: this access may be made by lanes that do not reach the barrier the fix needs, which a __syncwarp() of the lanes that do would not order; the barriers must stand where the writing and the other lanes both reach them
// CHECK-MESSAGES: :21:42: warning: lanes of one warp race on shared memory: lane 8 writes errors[8] and lane 0 reads it
// CHECK-MESSAGES: :20:9: note: no automatic fix: this access may be made by lanes that do not reach the barrier
// CHECK-MESSAGES: :22:42: warning: lanes of one warp race on shared memory: lane 4 writes errors[4] and lane 0 reads it
// CHECK-MESSAGES: :20:9: note: no automatic fix: this access may be made by lanes that do not reach the barrier
// CHECK-MESSAGES: :23:42: warning: lanes of one warp race on shared memory: lane 2 writes errors[2] and lane 0 reads it
// CHECK-MESSAGES: :20:9: note: no automatic fix: this access may be made by lanes that do not reach the barrier
// CHECK-MESSAGES: :24:42: warning: lanes of one warp race on shared memory: lane 1 writes errors[1] and lane 0 reads it
// CHECK-MESSAGES: :20:9: note: no automatic fix: this access may be made by lanes that do not reach the barrier
