// Legacy calls in loops whose condition is lane-dependent (issue 43, item 1).
// Under the legacy semantics the lanes at an iteration were exactly those
// whose condition still held. The loop is rewritten so that the lanes that
// enter it stay in it until none has an iteration left: each iteration every
// lane evaluates the condition, the ballot of it is the mask of the body, and
// a lane whose condition failed goes straight on to the next ballot; a for
// loop's increment moves to the end of the body. The near misses are in
// lane-dependent-loops-refused.cu.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache --checks=-*,warp-legacy-intrinsic %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 0 %warpfix --no-cache --checks=-*,warp-legacy-intrinsic --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=SUMMARY
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --strict-whitespace --input-file=%t/k.cu
// RUN: cp %t/k.cu %t/once.cu
// RUN: %expect-exit 0 %warpfix --no-cache --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=IDEMPOTENT
// RUN: diff %t/once.cu %t/k.cu
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/k.cu %}
// SUMMARY: fixed 11 findings in 1 file; 0 remain
// IDEMPOTENT: 0 findings in 0 files (0 fixable)

// A CSR row, one warp per row, strided by the warp.
__global__ void csr_rows(const int *rowPtr, const int *col, const float *val,
                         const float *x, float *y, int rows) {
  int lane = threadIdx.x % 32;
  int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  if (row >= rows)
    return;
  int rowStart = rowPtr[row], rowEnd = rowPtr[row + 1];
  float sum = 0;
  for (int j = rowStart + lane; j < rowEnd; j += 32) {
    float v = val[j] * x[col[j]];
    v += __shfl_down(v, 16);
    sum += v;
  }
  if (lane == 0)
    y[row] = sum;
}

// A while loop over a queue, with a continue that skips negative items: the
// lanes that continue are left out of the call's mask by a ballot of their
// branch, taken from the loop's.
__global__ void queue(const int *items, int *out, int count) {
  int i = threadIdx.x;
  int seen = 0;
  while (i < count) {
    if (items[i] < 0) {
      i += blockDim.x;
      continue;
    }
    seen += __shfl_xor(items[i], 1);
    i += blockDim.x;
  }
  out[threadIdx.x] = seen;
}

// A for loop without an increment keeps its continue.
__global__ void no_increment(float *out) {
  int i = threadIdx.x % 8;
  float v = out[threadIdx.x];
  for (; i < 8;) {
    v += __shfl_down(v, 1);
    if (threadIdx.x & 1)
      continue;
    i += 2;
  }
  out[threadIdx.x] = v;
}

// Nested loops under a lane-dependent branch: each ballot is taken among the
// lanes of the one around it.
__global__ void nested(const int *in, int *out, int n, int m) {
  int lane = threadIdx.x & 31;
  int acc = 0;
  if (lane < 16) {
    for (int a = lane; a < n; a += 16) {
      for (int b = a; b < m; b += 32) {
        acc += __shfl(acc, b & 15);
      }
    }
  }
  out[threadIdx.x] = acc;
}

// Two calls in one loop share its rewrite; a loop on one line stays on one
// line; a #pragma unroll stays with its loop.
__global__ void shapes(const int *in, int *out, int n) {
  int lane = threadIdx.x & 31;
  int acc = 0;
#pragma unroll 4
  for (int j = lane; j < n; j += 32) {
    acc += __shfl_xor(in[j], 1);
    acc += __any(acc > 3);
  }
  for (int j = lane; j < n; j += 32) { acc += __shfl_down(acc, 1); }
  out[threadIdx.x] = acc;
}

// A loop in a branch on one line: its mask is told apart from the branch's
// (same-line-branches.cu).
__global__ void one_line(int *out, int n, int m) {
  int lane = threadIdx.x & 31;
  int acc = lane;
  if (lane < n) { for (int j = lane; j < m; j += 32) { acc += __shfl_up(acc, 1); } }
  out[threadIdx.x] = acc;
}

// A kernel template, instantiated twice: each instantiation is judged, and
// they agree on the rewrite of the text they share.
template <class T>
__global__ void instantiated(const int *lim, const T *vals, T *out) {
  int lane = threadIdx.x & 31, m = lim[threadIdx.x];
  T s = 0;
  for (int j = lane; j < m; j += 32) {
    s += __shfl(vals[j], 0);
  }
  out[threadIdx.x] = s;
}
template __global__ void instantiated<int>(const int *, const int *, int *);
template __global__ void instantiated<float>(const int *, const float *, float *);


// A member's name in the increment (`blockDim.x`) finds no local of the
// body; a static_assert declares nothing; a body braced with digraphs.
__global__ void block_stride(const int *in, int *out, int n) {
  int acc = 0;
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    static_assert(sizeof(int) == 4, "int");
    int x = in[i];
    acc += __popc(__ballot(x & 1));
  }
  for (int i = threadIdx.x; i < n; i += blockDim.x) <%
    acc += __any(in[i] > 3);
  %>
  out[threadIdx.x] = acc;
}
// CHECK-MESSAGES: k.cu:31:10: warning: '__shfl_down' is a legacy
// CHECK-MESSAGES: k.cu:31:10: note: only some lanes reach this call
// CHECK-MESSAGES: k.cu:29:3: note: the lanes that ran an iteration of this loop were those whose condition still held
// CHECK-MESSAGES: k.cu:31:10: note: this assumes blocks are made of whole warps
// CHECK-MESSAGES: k.cu:49:13: warning: '__shfl_xor' is a legacy
// CHECK-MESSAGES: k.cu:49:13: note: only some lanes reach this call
// CHECK-MESSAGES: k.cu:44:3: note: the lanes that ran an iteration of this loop were those whose condition still held
// CHECK-MESSAGES: k.cu:60:10: warning: '__shfl_down' is a legacy
// CHECK-MESSAGES: k.cu:60:10: note: only some lanes reach this call
// CHECK-MESSAGES: k.cu:59:3: note: the lanes that ran an iteration of this loop were those whose condition still held
// CHECK-MESSAGES: k.cu:76:16: warning: '__shfl' is a legacy
// CHECK-MESSAGES: k.cu:76:16: note: only some lanes reach this call
// CHECK-MESSAGES: k.cu:74:5: note: the lanes that ran an iteration of this loop were those whose condition still held
// CHECK-MESSAGES: k.cu:75:7: note: the lanes that ran an iteration of this loop were those whose condition still held
// CHECK-MESSAGES: k.cu:90:12: warning: '__shfl_xor' is a legacy
// CHECK-MESSAGES: k.cu:90:12: note: only some lanes reach this call
// CHECK-MESSAGES: k.cu:89:3: note: the lanes that ran an iteration of this loop were those whose condition still held
// CHECK-MESSAGES: k.cu:91:12: warning: '__any' is a legacy
// CHECK-MESSAGES: k.cu:91:12: note: only some lanes reach this call
// CHECK-MESSAGES: k.cu:89:3: note: the lanes that ran an iteration of this loop were those whose condition still held
// CHECK-MESSAGES: k.cu:93:47: warning: '__shfl_down' is a legacy
// CHECK-MESSAGES: k.cu:93:47: note: only some lanes reach this call
// CHECK-MESSAGES: k.cu:93:3: note: the lanes that ran an iteration of this loop were those whose condition still held
// CHECK-MESSAGES: k.cu:102:63: warning: '__shfl_up' is a legacy
// CHECK-MESSAGES: k.cu:102:63: note: only some lanes reach this call
// CHECK-MESSAGES: k.cu:102:19: note: the lanes that ran an iteration of this loop were those whose condition still held
// CHECK-MESSAGES: k.cu:113:10: warning: '__shfl' is a legacy
// CHECK-MESSAGES: k.cu:113:10: note: only some lanes reach this call
// CHECK-MESSAGES: k.cu:112:3: note: the lanes that ran an iteration of this loop were those whose condition still held

// CHECK-FIXES:      {{^}}  for (int j = rowStart + lane; ; ) {
// CHECK-FIXES-NEXT: {{^}}    const bool warpfix_mask_29_iterating = j < rowEnd;
// CHECK-FIXES-NEXT: {{^}}    const unsigned warpfix_mask_29 = __ballot_sync(0xffffffff, warpfix_mask_29_iterating);
// CHECK-FIXES-NEXT: {{^}}    if (warpfix_mask_29 == 0)
// CHECK-FIXES-NEXT: {{^}}      break;
// CHECK-FIXES-NEXT: {{^}}    if (!warpfix_mask_29_iterating)
// CHECK-FIXES-NEXT: {{^}}      continue;
// CHECK-FIXES-NEXT: {{^}}    float v = val[j] * x[col[j]];
// CHECK-FIXES-NEXT: {{^}}    v += __shfl_down_sync(warpfix_mask_29, v, 16);
// CHECK-FIXES-NEXT: {{^}}    sum += v;
// CHECK-FIXES-NEXT: {{^}}    j += 32;
// CHECK-FIXES-NEXT: {{^}}  }
// CHECK-FIXES:      {{^}}  while (true) {
// CHECK-FIXES-NEXT: {{^}}    const bool warpfix_mask_44_iterating = i < count;
// CHECK-FIXES-NEXT: {{^}}    const unsigned warpfix_mask_44 = __ballot_sync(0xffffffff, warpfix_mask_44_iterating);
// CHECK-FIXES-NEXT: {{^}}    if (warpfix_mask_44 == 0)
// CHECK-FIXES-NEXT: {{^}}      break;
// CHECK-FIXES-NEXT: {{^}}    if (!warpfix_mask_44_iterating)
// CHECK-FIXES-NEXT: {{^}}      continue;
// CHECK-FIXES-NEXT: {{^}}    const bool warpfix_mask_45_taken = items[i] < 0;
// CHECK-FIXES-NEXT: {{^}}    const unsigned warpfix_mask_45 = __ballot_sync(warpfix_mask_44, warpfix_mask_45_taken);
// CHECK-FIXES-NEXT: {{^}}    if (warpfix_mask_45_taken) {
// CHECK-FIXES:      {{^}}    seen += __shfl_xor_sync((warpfix_mask_44 & ~warpfix_mask_45), items[i], 1);
// CHECK-FIXES-NEXT: {{^}}    i += blockDim.x;
// CHECK-FIXES-NEXT: {{^}}  }
// CHECK-FIXES:      {{^}}  for (; ;) {
// CHECK-FIXES-NEXT: {{^}}    const bool warpfix_mask_59_iterating = i < 8;
// CHECK-FIXES:      {{^}}    v += __shfl_down_sync(warpfix_mask_59, v, 1);
// CHECK-FIXES-NEXT: {{^}}    if (threadIdx.x & 1)
// CHECK-FIXES-NEXT: {{^}}      continue;
// CHECK-FIXES-NEXT: {{^}}    i += 2;
// CHECK-FIXES-NEXT: {{^}}  }
// CHECK-FIXES:      {{^}}  const unsigned warpfix_mask_73 = __ballot_sync(0xffffffff, lane < 16);
// CHECK-FIXES-NEXT: {{^}}  if (lane < 16) {
// CHECK-FIXES-NEXT: {{^}}    for (int a = lane; ; ) {
// CHECK-FIXES-NEXT: {{^}}      const bool warpfix_mask_74_iterating = a < n;
// CHECK-FIXES-NEXT: {{^}}      const unsigned warpfix_mask_74 = __ballot_sync(warpfix_mask_73, warpfix_mask_74_iterating);
// CHECK-FIXES:      {{^}}      for (int b = a; ; ) {
// CHECK-FIXES-NEXT: {{^}}        const bool warpfix_mask_75_iterating = b < m;
// CHECK-FIXES-NEXT: {{^}}        const unsigned warpfix_mask_75 = __ballot_sync(warpfix_mask_74, warpfix_mask_75_iterating);
// CHECK-FIXES:      {{^}}        acc += __shfl_sync(warpfix_mask_75, acc, b & 15);
// CHECK-FIXES-NEXT: {{^}}        b += 32;
// CHECK-FIXES-NEXT: {{^}}      }
// CHECK-FIXES-NEXT: {{^}}      a += 16;
// CHECK-FIXES-NEXT: {{^}}    }
// CHECK-FIXES:      {{^}}#pragma unroll 4
// CHECK-FIXES-NEXT: {{^}}  for (int j = lane; ; ) {
// CHECK-FIXES:      {{^}}    acc += __shfl_xor_sync(warpfix_mask_89, in[j], 1);
// CHECK-FIXES-NEXT: {{^}}    acc += __any_sync(warpfix_mask_89, acc > 3);
// CHECK-FIXES-NEXT: {{^}}    j += 32;
// CHECK-FIXES-NEXT: {{^}}  }
// CHECK-FIXES-NEXT: {{^}}  for (int j = lane; ; ) { const bool warpfix_mask_93_iterating = j < n; const unsigned warpfix_mask_93 = __ballot_sync(0xffffffff, warpfix_mask_93_iterating); if (warpfix_mask_93 == 0) break; if (!warpfix_mask_93_iterating) continue; acc += __shfl_down_sync(warpfix_mask_93, acc, 1); j += 32; }
// CHECK-FIXES:      {{^}}  const unsigned warpfix_mask_102 = __ballot_sync(0xffffffff, lane < n);
// CHECK-FIXES-NEXT: {{^}}  if (lane < n) { for (int j = lane; ; ) { const bool warpfix_mask_102_19_iterating = j < m; const unsigned warpfix_mask_102_19 = __ballot_sync(warpfix_mask_102, warpfix_mask_102_19_iterating); if (warpfix_mask_102_19 == 0) break; if (!warpfix_mask_102_19_iterating) continue; acc += __shfl_up_sync(warpfix_mask_102_19, acc, 1); j += 32; } }
// CHECK-FIXES:      {{^}}  for (int j = lane; ; ) {
// CHECK-FIXES-NEXT: {{^}}    const bool warpfix_mask_112_iterating = j < m;
// CHECK-FIXES-NEXT: {{^}}    const unsigned warpfix_mask_112 = __ballot_sync(0xffffffff, warpfix_mask_112_iterating);
// CHECK-FIXES:      {{^}}    s += __shfl_sync(warpfix_mask_112, vals[j], 0);
// CHECK-FIXES-NEXT: {{^}}    j += 32;
// CHECK-FIXES-NEXT: {{^}}  }
// CHECK-MESSAGES: k.cu:128:19: warning: '__ballot' is a legacy
// CHECK-MESSAGES: k.cu:128:19: note: only some lanes reach this call
// CHECK-MESSAGES: k.cu:125:3: note: the lanes that ran an iteration of this loop were those whose condition still held
// CHECK-MESSAGES: k.cu:131:12: warning: '__any' is a legacy
// CHECK-MESSAGES: k.cu:131:12: note: only some lanes reach this call
// CHECK-MESSAGES: k.cu:130:3: note: the lanes that ran an iteration of this loop were those whose condition still held
// CHECK-FIXES:      {{^}}    static_assert(sizeof(int) == 4, "int");
// CHECK-FIXES-NEXT: {{^}}    int x = in[i];
// CHECK-FIXES-NEXT: {{^}}    acc += __popc(__ballot_sync(warpfix_mask_125, x & 1));
// CHECK-FIXES-NEXT: {{^}}    i += blockDim.x;
// CHECK-FIXES-NEXT: {{^}}  }
// CHECK-FIXES-NEXT: {{^}}  for (int i = threadIdx.x; ; ) <%
// CHECK-FIXES-NEXT: {{^}}    const bool warpfix_mask_130_iterating = i < n;
// CHECK-FIXES:      {{^}}    acc += __any_sync(warpfix_mask_130, in[i] > 3);
// CHECK-FIXES-NEXT: {{^}}    i += blockDim.x;
// CHECK-FIXES-NEXT: {{^}}  %>
