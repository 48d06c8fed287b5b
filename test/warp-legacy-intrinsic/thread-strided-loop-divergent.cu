// Near misses of the thread-strided loop (thread-strided-loop.cu): each keeps
// lanes leaving the loop at different iterations, so each legacy call in it
// is reported and gets no full mask (issue 15, item 8a). Where the loop can
// be rewritten to keep its lanes together (lane-dependent-loops.cu), it is;
// the others are left alone.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 1 %warpfix --no-cache --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=SUMMARY
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --input-file=%t/k.cu
// SUMMARY: 7 findings in 1 file (1 fixable)

__global__ void padded_by_16(const int *in, int *out, int n) {
  int padded = (n + 15) / 16 * 16;
  int acc = 0;
  for (int i = threadIdx.x; i < padded; i += blockDim.x)
    acc += __shfl_down(in[i], 16);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: '__shfl_down' is a legacy
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: no automatic fix: the loop's condition is lane-dependent, so lanes leave it at different iterations
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: candidate rewrite
  out[threadIdx.x] = acc;
}

__global__ void half_stride(const int *in, int *out, int n) {
  int padded = (n + 31) / 32 * 32;
  int acc = 0;
  for (int i = threadIdx.x; i < padded; i += blockDim.x / 2)
    acc += __shfl_down(in[i], 16);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: '__shfl_down' is a legacy
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: no automatic fix: the loop's condition is lane-dependent
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: candidate rewrite
  out[threadIdx.x] = acc;
}

__global__ void offset_start(const int *in, int *out, int n) {
  int padded = (n + 31) / 32 * 32;
  int acc = 0;
  for (int i = threadIdx.x + 1; i < padded; i += blockDim.x)
    acc += __shfl_down(in[i], 16);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: '__shfl_down' is a legacy
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: no automatic fix: the loop's condition is lane-dependent
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: candidate rewrite
  out[threadIdx.x] = acc;
}

__global__ void unit_stride(const int *in, int *out) {
  int acc = 0;
  for (int i = threadIdx.x; i < 64; i++)
    acc += __shfl_down(in[i], 16);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: '__shfl_down' is a legacy
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: no automatic fix: the loop's condition is lane-dependent
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: candidate rewrite
  out[threadIdx.x] = acc;
}

__global__ void counter_assigned(const int *in, int *out, int n) {
  int padded = (n + 31) / 32 * 32;
  int acc = 0;
  for (int i = threadIdx.x; i < padded; i += blockDim.x) {
    acc += __shfl_down(in[i], 16);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: '__shfl_down' is a legacy
    // CHECK-MESSAGES: :[[@LINE-2]]:12: note: only some lanes reach this call
    // CHECK-MESSAGES: :[[@LINE-4]]:3: note: the lanes that ran an iteration of this loop were those whose condition still held
    if (acc < 0)
      i += 1;
  }
  // CHECK-FIXES: for (int i = threadIdx.x; ; ) {
  // CHECK-FIXES: acc += __shfl_down_sync(warpfix_mask_{{[0-9]+}}, in[i], 16);
  // CHECK-FIXES: i += 1;
  // CHECK-FIXES-NEXT: i += blockDim.x;
  // CHECK-FIXES-NEXT: }
  out[threadIdx.x] = acc;
}

__global__ void lane_break(const int *in, int *out, int n) {
  int padded = (n + 31) / 32 * 32;
  int acc = 0;
  for (int i = threadIdx.x; i < padded; i += blockDim.x) {
    acc += __shfl_down(in[i], 16);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: '__shfl_down' is a legacy
    // CHECK-MESSAGES: :[[@LINE+2]]:7: note: no automatic fix: a break under a lane-dependent condition makes lanes leave the loop at different iterations
    if (acc < 0)
      break;
  }
  out[threadIdx.x] = acc;
}

// Launched with blocks of 48 threads: blockDim.x is not a multiple of 32.
__global__ void launched_with_48(const int *in, int *out, int n) {
  int padded = (n + 31) / 32 * 32;
  int acc = 0;
  for (int i = threadIdx.x; i < padded; i += blockDim.x)
    acc += __shfl_down(in[i], 16);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: '__shfl_down' is a legacy
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: no automatic fix: the loop's condition is lane-dependent
  // CHECK-MESSAGES: :{{[0-9]+}}:3: note: the whole-warp assumption is off for kernel 'launched_with_48': it is launched here with blocks of 48 threads in x, not a multiple of 32
  // CHECK-MESSAGES: :[[@LINE-4]]:12: note: candidate rewrite
  out[threadIdx.x] = acc;
}

void host(const int *in, int *out, int n) {
  launched_with_48<<<1, 48>>>(in, out, n);
}
