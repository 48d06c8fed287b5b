// Every statement that leaves an iteration or the function counts, whatever
// it is nested in (issue 13, pattern 2).
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 1 %warpfix --fix %t/k.cu
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --input-file=%t/k.cu
// RUN: cp %t/k.cu %t/once.cu
// RUN: %expect-exit 1 %warpfix --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=IDEMPOTENT
// RUN: diff %t/once.cu %t/k.cu
// IDEMPOTENT: 3 findings in 1 file (0 fixable)
__global__ void continue_in_switch(int *out, const int *in, int n) {
  int b = 0;
  for (int i = 0; i < n; ++i) {
    switch (in[i * 32 + threadIdx.x % 32] & 3) {
    case 0:
      continue;
    default:
      break;
    }
    b += __ballot(in[i] > 0);
  }
  out[threadIdx.x] = b;
}

__global__ void return_in_switch(int *out, const int *in) {
  switch (in[threadIdx.x]) {
  case 7:
    return;
  default:
    break;
  }
  out[threadIdx.x] = __any(in[threadIdx.x] > 3);
}

__global__ void goto_out(int *out, const int *in) {
  int v = in[threadIdx.x];
  if (v < 0)
    goto done;
  v = __shfl_down(v, 1);
done:
  out[threadIdx.x] = v;
}

// Traps: a break that leaves only the switch, or only an inner loop, lets
// every lane go on.
__global__ void break_in_switch(int *out, const int *in, int n) {
  int b = 0;
  for (int i = 0; i < n; ++i) {
    switch (in[threadIdx.x] & 1) {
    case 0:
      b += 1;
      break;
    default:
      break;
    }
    b += __ballot(in[i] > 0);
  }
  out[threadIdx.x] = b;
}

__global__ void break_of_inner_loop(int *out, const int *in, int n) {
  int b = 0;
  switch (n) {
  case 1:
    for (int j = 0; j < 4; ++j)
      if (in[threadIdx.x + j] > 0)
        break;
    b = __ballot(in[threadIdx.x] > 0);
    break;
  default:
    break;
  }
  out[threadIdx.x] = b;
}

// CHECK-MESSAGES: :20:10: warning: '__ballot' is a legacy warp intrinsic that CUDA 13 no longer compiles; use '__ballot_sync' with an explicit member mask
// CHECK-MESSAGES: :16:7: note: no automatic fix: a continue under a lane-dependent condition may remove lanes before this point
// CHECK-MESSAGES: :20:10: note: candidate rewrite: __ballot_sync(<mask>, ...) where <mask> names the lanes that reach this call
// CHECK-MESSAGES: :32:22: warning: '__any' is a legacy warp intrinsic that CUDA 13 no longer compiles; use '__any_sync' with an explicit member mask
// CHECK-MESSAGES: :28:5: note: no automatic fix: an early return under a lane-dependent condition may remove lanes before this point
// CHECK-MESSAGES: :32:22: note: candidate rewrite: __any_sync(<mask>, ...) where <mask> names the lanes that reach this call
// CHECK-MESSAGES: :39:7: warning: '__shfl_down' is a legacy warp intrinsic that CUDA 13 no longer compiles; use '__shfl_down_sync' with an explicit member mask
// CHECK-MESSAGES: :35:17: note: no automatic fix: a goto in the function may repeat or skip code for some lanes
// CHECK-MESSAGES: :39:7: note: candidate rewrite: __shfl_down_sync(<mask>, ...) where <mask> names the lanes that reach this call
// CHECK-MESSAGES: :56:10: warning: '__ballot' is a legacy warp intrinsic that CUDA 13 no longer compiles; use '__ballot_sync' with an explicit member mask
// CHECK-MESSAGES: :56:10: note: every lane of the warp reaches this call, so the full mask is exact
// CHECK-MESSAGES: :68:9: warning: '__ballot' is a legacy warp intrinsic that CUDA 13 no longer compiles; use '__ballot_sync' with an explicit member mask
// CHECK-MESSAGES: :68:9: note: every lane of the warp reaches this call, so the full mask is exact
// CHECK-FIXES: b += __ballot_sync(0xffffffff, in[i] > 0);
// CHECK-FIXES: b = __ballot_sync(0xffffffff, in[threadIdx.x] > 0);
