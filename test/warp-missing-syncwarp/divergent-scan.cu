// The warp scan whose step reads a neighbour's element into a register and
// writes it back under a lane-dependent branch, `if (lane >= k) { t += s[-k];
// s[0] = t; }` (issue 15, item 5). A __syncwarp() cannot stay inside the
// branch: every lane named in its mask must reach it. Each step is split as
// listing 8 of "Using CUDA Warp-Level Primitives" does, with the barriers outside the branch and the
// branch entered twice: read under the condition, synchronise, write under
// the condition, synchronise. Each finding rewrites its own step, so steps
// no longer overlap, and the closing barrier is an insertion of its own that
// merges with the same barrier wanted by another finding.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --checks=-*,warp-missing-syncwarp %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 0 %warpfix --checks=-*,warp-missing-syncwarp --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=FIXED
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --strict-whitespace --input-file=%t/k.cu
// RUN: cp %t/k.cu %t/once.cu
// RUN: %expect-exit 0 %warpfix --checks=-*,warp-missing-syncwarp --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=IDEMPOTENT
// RUN: diff %t/once.cu %t/k.cu
// RUN: %expect-exit 0 %warpfix %t/k.cu
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/k.cu %}
// FIXED: fixed 19 findings in 1 file; 0 remain
// IDEMPOTENT: 0 findings in 0 files (0 fixable)

// Five steps unrolled, through a pointer to the lane's own element.
__global__ void scan_unrolled(int *o, const int *in) {
  __shared__ int buf[256];
  int tid = threadIdx.x;
  int lane = tid & 31;
  buf[tid] = in[tid];
  __syncwarp();
  int *s = buf + tid;
  int t = s[0];
  if (lane >= 1) { t += s[-1]; s[0] = t; }
  if (lane >= 2) { t += s[-2]; s[0] = t; }
  if (lane >= 4) { t += s[-4]; s[0] = t; }
  if (lane >= 8) { t += s[-8]; s[0] = t; }
  if (lane >= 16) { t += s[-16]; s[0] = t; }
  o[tid] = t;
}

// The same steps in a loop whose bound every lane shares.
__global__ void scan_loop(float *o, const float *in) {
  __shared__ float buf[256];
  int tid = threadIdx.x;
  int lane = tid & 31;
  buf[tid] = in[tid];
  __syncwarp();
  float t = buf[tid];
  for (int k = 1; k < 32; k *= 2) {
    if (lane >= k) {
      t = t + buf[tid - k];
      buf[tid] = t;
    }
  }
  o[tid] = t;
}

// A device function on a volatile pointer, ending with an exclusive read of
// the neighbour's element: the last step's closing barrier orders it.
template <class T>
__device__ T scan_exclusive(volatile T *s) {
  const int lane = threadIdx.x & 31;
  T t = s[0];
  if (lane >= 1) { t += s[-1]; s[0] = t; }
  if (lane >= 2) { t += s[-2]; s[0] = t; }
  if (lane >= 4) { t += s[-4]; s[0] = t; }
  if (lane >= 8) { t += s[-8]; s[0] = t; }
  if (lane >= 16) { t += s[-16]; s[0] = t; }
  return lane ? s[-1] : T(0);
}

__global__ void scan_helper(int *o, const int *in) {
  extern __shared__ int sp[];
  sp[threadIdx.x] = in[threadIdx.x];
  __syncwarp();
  o[threadIdx.x] = scan_exclusive<int>(sp + threadIdx.x);
}

// Half of each warp scans: the mask is the ballot of the branch around the
// steps, taken before it.
__global__ void scan_half(int *o, const int *in) {
  __shared__ int buf[256];
  int tid = threadIdx.x;
  int lane = tid & 31;
  buf[tid] = in[tid];
  __syncwarp();
  if (lane < 16) {
    int t = buf[tid];
    if (lane >= 1) { t += buf[tid - 1]; buf[tid] = t; }
    if (lane >= 2) { t += buf[tid - 2]; buf[tid] = t; }
    o[tid] = t;
  }
}

// The write to `other` before the scan races with the read after it: that
// finding wants a barrier where the last step's closing one goes, and the
// two are one edit.
__global__ void scan_then_exchange(int *o, const int *in) {
  __shared__ int buf[256];
  __shared__ int other[256];
  int tid = threadIdx.x;
  int lane = tid & 31;
  buf[tid] = in[tid];
  __syncwarp();
  other[tid] = 2 * in[tid];
  int t = buf[tid];
  if (lane >= 1) { t += buf[tid - 1]; buf[tid] = t; }
  if (lane >= 2) { t += buf[tid - 2]; buf[tid] = t; }
  o[tid] = t + other[tid ^ 1];
}

// Not reported: each lane reads and writes only its own element.
__global__ void own_element(int *o, const int *in) {
  __shared__ int buf[256];
  int tid = threadIdx.x;
  int lane = tid & 31;
  buf[tid] = in[tid];
  int t = 0;
  if (lane >= 1) { t += buf[tid]; buf[tid] = t; }
  if (lane >= 2) { t += buf[tid]; buf[tid] = t; }
  o[tid] = t;
}

// A barrier the code already has after a step closes it: none is added.
__global__ void barrier_after_step(int *o, const int *in) {
  __shared__ int buf[256];
  int tid = threadIdx.x;
  int lane = tid & 31;
  buf[tid] = in[tid];
  __syncwarp();
  int t = buf[tid];
  if (lane >= 1) { t += buf[tid - 1]; buf[tid] = t; }
  __syncwarp();
  if (lane >= 2) { t += buf[tid - 2]; buf[tid] = t; }
  __syncwarp();
  o[tid] = t;
}

// A step that shares its line is rewritten on that line.
__global__ void step_on_one_line(int *o, const int *in) {
  __shared__ int buf[256];
  int tid = threadIdx.x;
  int lane = tid & 31;
  buf[tid] = in[tid];
  __syncwarp();
  int t = buf[tid]; if (lane >= 1) { t += buf[tid - 1]; buf[tid] = t; } o[tid] = t;
}

// CHECK-MESSAGES: :31:32: warning: lanes of one warp race on shared memory: lane 1 writes buf[1] and lane 17 reads it with no __syncwarp() between them (Using CUDA Warp-Level Primitives, listing 7)
// CHECK-MESSAGES: :31:3: note: each lane reads into its register under the condition, all lanes synchronise outside it, then each writes its own element under the condition again (Using CUDA Warp-Level Primitives, listing 8)
// CHECK-MESSAGES: :31:3: note: every lane of the warp reaches this statement, so the full mask is exact
// CHECK-MESSAGES: :32:32: warning: lanes of one warp race on shared memory: lane 2 writes buf[2] and lane 18 reads it with no __syncwarp() between them (Using CUDA Warp-Level Primitives, listing 7)
// CHECK-MESSAGES: :32:3: note: each lane reads into its register under the condition, all lanes synchronise outside it, then each writes its own element under the condition again (Using CUDA Warp-Level Primitives, listing 8)
// CHECK-MESSAGES: :32:3: note: every lane of the warp reaches this statement, so the full mask is exact
// CHECK-MESSAGES: :33:32: warning: lanes of one warp race on shared memory: lane 4 writes buf[4] and lane 20 reads it with no __syncwarp() between them (Using CUDA Warp-Level Primitives, listing 7)
// CHECK-MESSAGES: :33:3: note: each lane reads into its register under the condition, all lanes synchronise outside it, then each writes its own element under the condition again (Using CUDA Warp-Level Primitives, listing 8)
// CHECK-MESSAGES: :33:3: note: every lane of the warp reaches this statement, so the full mask is exact
// CHECK-MESSAGES: :34:32: warning: lanes of one warp race on shared memory: lane 8 writes buf[8] and lane 24 reads it with no __syncwarp() between them (Using CUDA Warp-Level Primitives, listing 7)
// CHECK-MESSAGES: :34:3: note: each lane reads into its register under the condition, all lanes synchronise outside it, then each writes its own element under the condition again (Using CUDA Warp-Level Primitives, listing 8)
// CHECK-MESSAGES: :34:3: note: every lane of the warp reaches this statement, so the full mask is exact
// CHECK-MESSAGES: :35:34: warning: lanes of one warp race on shared memory: lane 16 writes buf[16] and lane 24 reads it with no __syncwarp() between them (Using CUDA Warp-Level Primitives, listing 7)
// CHECK-MESSAGES: :35:3: note: each lane reads into its register under the condition, all lanes synchronise outside it, then each writes its own element under the condition again (Using CUDA Warp-Level Primitives, listing 8)
// CHECK-MESSAGES: :35:3: note: every lane of the warp reaches this statement, so the full mask is exact
// CHECK-MESSAGES: :50:7: warning: lanes of one warp race on shared memory: lane 1 writes buf[1] and lane 3 reads it with no __syncwarp() between them (Using CUDA Warp-Level Primitives, listing 7)
// CHECK-MESSAGES: :48:5: note: each lane reads into its register under the condition, all lanes synchronise outside it, then each writes its own element under the condition again (Using CUDA Warp-Level Primitives, listing 8)
// CHECK-MESSAGES: :48:5: note: every lane of the warp reaches this statement, so the full mask is exact
// CHECK-MESSAGES: :62:32: warning: lanes of one warp race on shared memory: lane 1 writes sp[1] and lane 2 reads it with no __syncwarp() between them (Using CUDA Warp-Level Primitives, listing 7); volatile does not order accesses between lanes
// CHECK-MESSAGES: :62:3: note: each lane reads into its register under the condition, all lanes synchronise outside it, then each writes its own element under the condition again (Using CUDA Warp-Level Primitives, listing 8)
// CHECK-MESSAGES: :62:3: note: every lane of the warp reaches this statement, so the full mask is exact
// CHECK-MESSAGES: :63:32: warning: lanes of one warp race on shared memory: lane 2 writes sp[2] and lane 3 reads it with no __syncwarp() between them (Using CUDA Warp-Level Primitives, listing 7); volatile does not order accesses between lanes
// CHECK-MESSAGES: :63:3: note: each lane reads into its register under the condition, all lanes synchronise outside it, then each writes its own element under the condition again (Using CUDA Warp-Level Primitives, listing 8)
// CHECK-MESSAGES: :63:3: note: every lane of the warp reaches this statement, so the full mask is exact
// CHECK-MESSAGES: :64:32: warning: lanes of one warp race on shared memory: lane 4 writes sp[4] and lane 5 reads it with no __syncwarp() between them (Using CUDA Warp-Level Primitives, listing 7); volatile does not order accesses between lanes
// CHECK-MESSAGES: :64:3: note: each lane reads into its register under the condition, all lanes synchronise outside it, then each writes its own element under the condition again (Using CUDA Warp-Level Primitives, listing 8)
// CHECK-MESSAGES: :64:3: note: every lane of the warp reaches this statement, so the full mask is exact
// CHECK-MESSAGES: :65:32: warning: lanes of one warp race on shared memory: lane 8 writes sp[8] and lane 9 reads it with no __syncwarp() between them (Using CUDA Warp-Level Primitives, listing 7); volatile does not order accesses between lanes
// CHECK-MESSAGES: :65:3: note: each lane reads into its register under the condition, all lanes synchronise outside it, then each writes its own element under the condition again (Using CUDA Warp-Level Primitives, listing 8)
// CHECK-MESSAGES: :65:3: note: every lane of the warp reaches this statement, so the full mask is exact
// CHECK-MESSAGES: :66:34: warning: lanes of one warp race on shared memory: lane 16 writes sp[16] and lane 17 reads it with no __syncwarp() between them (Using CUDA Warp-Level Primitives, listing 7); volatile does not order accesses between lanes
// CHECK-MESSAGES: :66:3: note: each lane reads into its register under the condition, all lanes synchronise outside it, then each writes its own element under the condition again (Using CUDA Warp-Level Primitives, listing 8)
// CHECK-MESSAGES: :66:3: note: every lane of the warp reaches this statement, so the full mask is exact
// CHECK-MESSAGES: :87:41: warning: lanes of one warp race on shared memory: lane 1 writes buf[1] and lane 3 reads it with no __syncwarp() between them (Using CUDA Warp-Level Primitives, listing 7)
// CHECK-MESSAGES: :87:5: note: each lane reads into its register under the condition, all lanes synchronise outside it, then each writes its own element under the condition again (Using CUDA Warp-Level Primitives, listing 8)
// CHECK-MESSAGES: :87:5: note: only some lanes reach this statement; the mask is a ballot of the branch conditions, taken before the branch (Using CUDA Warp-Level Primitives, listing 3)
// CHECK-MESSAGES: :88:41: warning: lanes of one warp race on shared memory: lane 2 writes buf[2] and lane 4 reads it with no __syncwarp() between them (Using CUDA Warp-Level Primitives, listing 7)
// CHECK-MESSAGES: :88:5: note: each lane reads into its register under the condition, all lanes synchronise outside it, then each writes its own element under the condition again (Using CUDA Warp-Level Primitives, listing 8)
// CHECK-MESSAGES: :88:5: note: only some lanes reach this statement; the mask is a ballot of the branch conditions, taken before the branch (Using CUDA Warp-Level Primitives, listing 3)
// CHECK-MESSAGES: :103:3: warning: lanes of one warp race on shared memory: lane 0 writes other[0] and lane 1 reads it with no __syncwarp() between them (Using CUDA Warp-Level Primitives, listing 7)
// CHECK-MESSAGES: :107:3: note: a __syncwarp() between the accesses orders them
// CHECK-MESSAGES: :105:39: warning: lanes of one warp race on shared memory: lane 1 writes buf[1] and lane 3 reads it with no __syncwarp() between them (Using CUDA Warp-Level Primitives, listing 7)
// CHECK-MESSAGES: :105:3: note: each lane reads into its register under the condition, all lanes synchronise outside it, then each writes its own element under the condition again (Using CUDA Warp-Level Primitives, listing 8)
// CHECK-MESSAGES: :105:3: note: every lane of the warp reaches this statement, so the full mask is exact
// CHECK-MESSAGES: :106:39: warning: lanes of one warp race on shared memory: lane 2 writes buf[2] and lane 4 reads it with no __syncwarp() between them (Using CUDA Warp-Level Primitives, listing 7)
// CHECK-MESSAGES: :106:3: note: each lane reads into its register under the condition, all lanes synchronise outside it, then each writes its own element under the condition again (Using CUDA Warp-Level Primitives, listing 8)
// CHECK-MESSAGES: :106:3: note: every lane of the warp reaches this statement, so the full mask is exact
// CHECK-MESSAGES: :130:39: warning: lanes of one warp race on shared memory: lane 1 writes buf[1] and lane 2 reads it with no __syncwarp() between them (Using CUDA Warp-Level Primitives, listing 7)
// CHECK-MESSAGES: :130:3: note: each lane reads into its register under the condition, all lanes synchronise outside it, then each writes its own element under the condition again (Using CUDA Warp-Level Primitives, listing 8)
// CHECK-MESSAGES: :130:3: note: every lane of the warp reaches this statement, so the full mask is exact
// CHECK-MESSAGES: :132:39: warning: lanes of one warp race on shared memory: lane 2 writes buf[2] and lane 4 reads it with no __syncwarp() between them (Using CUDA Warp-Level Primitives, listing 7)
// CHECK-MESSAGES: :132:3: note: each lane reads into its register under the condition, all lanes synchronise outside it, then each writes its own element under the condition again (Using CUDA Warp-Level Primitives, listing 8)
// CHECK-MESSAGES: :132:3: note: every lane of the warp reaches this statement, so the full mask is exact
// CHECK-MESSAGES: :144:57: warning: lanes of one warp race on shared memory: lane 1 writes buf[1] and lane 2 reads it with no __syncwarp() between them (Using CUDA Warp-Level Primitives, listing 7)
// CHECK-MESSAGES: :144:21: note: each lane reads into its register under the condition, all lanes synchronise outside it, then each writes its own element under the condition again (Using CUDA Warp-Level Primitives, listing 8)
// CHECK-MESSAGES: :144:21: note: every lane of the warp reaches this statement, so the full mask is exact
// CHECK-FIXES:{{^}}  int t = s[0];
// CHECK-FIXES-NEXT:{{^}}  if (lane >= 1) t += s[-1];
// CHECK-FIXES-NEXT:{{^}}  __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT:{{^}}  if (lane >= 1) s[0] = t;
// CHECK-FIXES-NEXT:{{^}}  __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT:{{^}}  if (lane >= 2) t += s[-2];
// CHECK-FIXES-NEXT:{{^}}  __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT:{{^}}  if (lane >= 2) s[0] = t;
// CHECK-FIXES-NEXT:{{^}}  __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT:{{^}}  if (lane >= 4) t += s[-4];
// CHECK-FIXES-NEXT:{{^}}  __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT:{{^}}  if (lane >= 4) s[0] = t;
// CHECK-FIXES-NEXT:{{^}}  __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT:{{^}}  if (lane >= 8) t += s[-8];
// CHECK-FIXES-NEXT:{{^}}  __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT:{{^}}  if (lane >= 8) s[0] = t;
// CHECK-FIXES-NEXT:{{^}}  __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT:{{^}}  if (lane >= 16) t += s[-16];
// CHECK-FIXES-NEXT:{{^}}  __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT:{{^}}  if (lane >= 16) s[0] = t;
// CHECK-FIXES-NEXT:{{^}}  __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT:{{^}}  o[tid] = t;
// CHECK-FIXES:{{^}}  for (int k = 1; k < 32; k *= 2) {
// CHECK-FIXES-NEXT:{{^}}    if (lane >= k) t = t + buf[tid - k];
// CHECK-FIXES-NEXT:{{^}}    __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT:{{^}}    if (lane >= k) buf[tid] = t;
// CHECK-FIXES-NEXT:{{^}}    __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT:{{^}}  }
// CHECK-FIXES:{{^}}  T t = s[0];
// CHECK-FIXES-NEXT:{{^}}  if (lane >= 1) t += s[-1];
// CHECK-FIXES-NEXT:{{^}}  __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT:{{^}}  if (lane >= 1) s[0] = t;
// CHECK-FIXES-NEXT:{{^}}  __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT:{{^}}  if (lane >= 2) t += s[-2];
// CHECK-FIXES-NEXT:{{^}}  __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT:{{^}}  if (lane >= 2) s[0] = t;
// CHECK-FIXES-NEXT:{{^}}  __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT:{{^}}  if (lane >= 4) t += s[-4];
// CHECK-FIXES-NEXT:{{^}}  __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT:{{^}}  if (lane >= 4) s[0] = t;
// CHECK-FIXES-NEXT:{{^}}  __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT:{{^}}  if (lane >= 8) t += s[-8];
// CHECK-FIXES-NEXT:{{^}}  __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT:{{^}}  if (lane >= 8) s[0] = t;
// CHECK-FIXES-NEXT:{{^}}  __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT:{{^}}  if (lane >= 16) t += s[-16];
// CHECK-FIXES-NEXT:{{^}}  __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT:{{^}}  if (lane >= 16) s[0] = t;
// CHECK-FIXES-NEXT:{{^}}  __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT:{{^}}  return lane ? s[-1] : T(0);
// CHECK-FIXES:{{^}}  const unsigned warpfix_mask_85 = __ballot_sync(0xffffffff, lane < 16);
// CHECK-FIXES-NEXT:{{^}}  if (lane < 16) {
// CHECK-FIXES-NEXT:{{^}}    int t = buf[tid];
// CHECK-FIXES-NEXT:{{^}}    if (lane >= 1) t += buf[tid - 1];
// CHECK-FIXES-NEXT:{{^}}    __syncwarp(warpfix_mask_85);
// CHECK-FIXES-NEXT:{{^}}    if (lane >= 1) buf[tid] = t;
// CHECK-FIXES-NEXT:{{^}}    __syncwarp(warpfix_mask_85);
// CHECK-FIXES-NEXT:{{^}}    if (lane >= 2) t += buf[tid - 2];
// CHECK-FIXES-NEXT:{{^}}    __syncwarp(warpfix_mask_85);
// CHECK-FIXES-NEXT:{{^}}    if (lane >= 2) buf[tid] = t;
// CHECK-FIXES-NEXT:{{^}}    __syncwarp(warpfix_mask_85);
// CHECK-FIXES-NEXT:{{^}}    o[tid] = t;
// CHECK-FIXES:{{^}}  other[tid] = 2 * in[tid];
// CHECK-FIXES-NEXT:{{^}}  int t = buf[tid];
// CHECK-FIXES-NEXT:{{^}}  if (lane >= 1) t += buf[tid - 1];
// CHECK-FIXES-NEXT:{{^}}  __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT:{{^}}  if (lane >= 1) buf[tid] = t;
// CHECK-FIXES-NEXT:{{^}}  __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT:{{^}}  if (lane >= 2) t += buf[tid - 2];
// CHECK-FIXES-NEXT:{{^}}  __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT:{{^}}  if (lane >= 2) buf[tid] = t;
// CHECK-FIXES-NEXT:{{^}}  __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT:{{^}}  o[tid] = t + other[tid ^ 1];
// CHECK-FIXES:{{^}}  int t = buf[tid];
// CHECK-FIXES-NEXT:{{^}}  if (lane >= 1) t += buf[tid - 1];
// CHECK-FIXES-NEXT:{{^}}  __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT:{{^}}  if (lane >= 1) buf[tid] = t;
// CHECK-FIXES-NEXT:{{^}}  __syncwarp();
// CHECK-FIXES-NEXT:{{^}}  if (lane >= 2) t += buf[tid - 2];
// CHECK-FIXES-NEXT:{{^}}  __syncwarp(0xffffffff);
// CHECK-FIXES-NEXT:{{^}}  if (lane >= 2) buf[tid] = t;
// CHECK-FIXES-NEXT:{{^}}  __syncwarp();
// CHECK-FIXES-NEXT:{{^}}  o[tid] = t;
// CHECK-FIXES:{{^}}  int t = buf[tid]; if (lane >= 1) t += buf[tid - 1]; __syncwarp(0xffffffff); if (lane >= 1) buf[tid] = t; __syncwarp(0xffffffff); o[tid] = t;
