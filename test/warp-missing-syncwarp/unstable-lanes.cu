// A guarded step inside a loop whose condition reads the shared elements
// that the step writes, and changes with the loop's counter: a ballot of it
// taken before the branch, and barriers over those lanes, neither see the
// same lanes as the branch (another lane's store comes in between) nor
// order a lane that took the branch in one iteration with one that skipped
// it in the next. No fix; the races are reported.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache --checks=-*,warp-missing-syncwarp %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 1 %warpfix --no-cache --checks=-*,warp-missing-syncwarp --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=UNCHANGED
// RUN: diff %s %t/k.cu
// UNCHANGED: fixed 0 findings in 0 files; 2 remain
__global__ void row_max_id(const float *mat, float *max_out, int *id_out, int cols) {
  __shared__ float smax[256];
  __shared__ int sidx[256];
  int tid = threadIdx.x;
  const float *row = mat + blockIdx.x * cols;
  float best = -1e30f;
  int best_id = -1;
  for (int j = tid; j < cols; j += 256)
    if (row[j] > best) { best = row[j]; best_id = j; }
  smax[tid] = best;
  sidx[tid] = best_id;
  __syncthreads();
  for (int n = 128; n >= 32; n >>= 1) {
    if (tid < n && smax[tid + n] > smax[tid]) {
      smax[tid] = smax[tid + n];
      sidx[tid] = sidx[tid + n];
    }
    __syncthreads();
  }
  if (tid < warpSize / 2) {
    for (int n = warpSize / 2; n > 0; n >>= 1) {
      if (smax[tid + n] > smax[tid]) {
        smax[tid] = smax[tid + n];
        sidx[tid] = sidx[tid + n];
      }
    }
  }
  if (tid == 0) {
    max_out[blockIdx.x] = smax[0];
    id_out[blockIdx.x] = sidx[0];
  }
}
void host(const float *m, float *o, int *i, int rows, int cols) {
  row_max_id<<<rows, 256>>>(m, o, i, cols);
}

// CHECK-MESSAGES: :34:9: warning: lanes of one warp race on shared memory: lane 8 writes smax[8] and lane 0 reads it
// CHECK-MESSAGES: :34:9: note: no automatic fix: the lanes that reach the barrier the fix needs are decided by a condition that reads memory, or that a loop around it changes, so they may differ between the ballot and the branch, or from one iteration to the next; a barrier of one time's lanes does not order a lane that took the branch at another
// CHECK-MESSAGES: :35:9: warning: lanes of one warp race on shared memory: lane 8 writes sidx[8] and lane 0 reads it
// CHECK-MESSAGES: :35:9: note: no automatic fix: the lanes that reach the barrier the fix needs
