// Near misses of the reused loop counter (loop-counter-reuse.cu): a lane-
// dependent init, a step under a lane-dependent branch or after a lane-
// dependent continue, a case label or a goto that enters the loop past its
// init, an escaped address, and a use after the loop. Each keeps the counter
// lane-dependent, so each legacy call is reported and left alone, or gets a
// ballot where it may: a ballot before a branch, or the ballot of a loop
// rewritten to keep its lanes together (lane-dependent-loops.cu).
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:

__global__ void laneDependentInit(float *out) {
  int i;
  float v = out[threadIdx.x];
  for (i = 0; i < 4; i++)
    v += 1.f;
  for (i = threadIdx.x % 4; i < 4; i++)
    v += __shfl_down(v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: '__shfl_down' is a legacy
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: no automatic fix: the loop's condition is lane-dependent
  out[threadIdx.x] = v;
}

__global__ void divergentStep(float *out) {
  int i;
  float v = out[threadIdx.x];
  for (i = 0; i < 4; i++) {
    if (threadIdx.x & 1)
      i++;
    v += __shfl_down(v, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: '__shfl_down' is a legacy
    // CHECK-MESSAGES: :[[@LINE-5]]:3: note: the lanes that ran an iteration of this loop were those whose condition still held
  }
  out[threadIdx.x] = v;
}

__global__ void continueBeforeStep(float *out) {
  int i;
  float v = out[threadIdx.x];
  for (i = 0; i < 8;) {
    v += __shfl_down(v, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: '__shfl_down' is a legacy
    // CHECK-MESSAGES: :[[@LINE-3]]:3: note: the lanes that ran an iteration of this loop were those whose condition still held
    if (threadIdx.x & 1)
      continue;
    i += 2;
  }
  out[threadIdx.x] = v;
}

__global__ void caseLabelInside(const int *n, float *out) {
  int i = threadIdx.x;
  float v = out[threadIdx.x];
  switch (n[0]) {
    for (i = 0; i < 4; i++) {
    case 1:
      v += __shfl_down(v, 1);
      // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: '__shfl_down' is a legacy
      // CHECK-MESSAGES: :[[@LINE-4]]:5: note: no automatic fix: the loop's condition is lane-dependent
    }
  }
  out[threadIdx.x] = v;
}

__global__ void gotoPastInit(const int *n, float *out) {
  int i = threadIdx.x;
  float v = out[threadIdx.x];
  if (n[0])
    goto inside;
  for (i = 0; i < 4; i++) {
  inside:
    v += __shfl_down(v, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: '__shfl_down' is a legacy
    // CHECK-MESSAGES: :[[@LINE-9]]:17: note: no automatic fix: a goto in the function may repeat or skip code for some lanes
  }
  out[threadIdx.x] = v;
}

__global__ void escapedCounter(float *out) {
  int i = threadIdx.x;
  float v = out[threadIdx.x];
  int *alias = &i;
  for (i = 0; i < 4; i++) {
    *alias = threadIdx.x;
    v += __shfl_down(v, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: '__shfl_down' is a legacy
    // CHECK-MESSAGES: :[[@LINE-4]]:3: note: the lanes that ran an iteration of this loop were those whose condition still held
  }
  out[threadIdx.x] = v;
}

__global__ void useAfterTheLoop(float *out) {
  int i = threadIdx.x;
  float v = out[threadIdx.x];
  for (i = 0; i < 4; i++)
    v += 1.f;
  if (i < 4)
    v += __shfl_down(v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: '__shfl_down' is a legacy
  // CHECK-MESSAGES: :[[@LINE-2]]:10: note: only some lanes reach this call; the mask is a ballot of the branch conditions
  out[threadIdx.x] = v;
}
