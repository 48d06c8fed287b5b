// "Tutorial de CUDA - Warp": lanes leave this loop at different iterations, so a __syncwarp()
// inside it would be reached by a different set of lanes each time. Reported
// with an explanation and no fix; the race before the loop is fixed.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --checks=-*,warp-missing-syncwarp %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 1 %warpfix --checks=-*,warp-missing-syncwarp --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=FIXED
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --input-file=%t/k.cu
// FIXED: fixed 1 finding in 1 file; 1 remain

__global__ void tutorialLoop(float *a) {
  __shared__ float shared_mem[32];
  int idx = threadIdx.x;
  shared_mem[idx] = a[idx];
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: lanes of one warp race on shared memory: lane 16 writes shared_mem[16] and lane 0 reads it
  for (int threshold = 16; idx < threshold; threshold >>= 1)
    shared_mem[idx] += shared_mem[idx + threshold];
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: lanes of one warp race on shared memory: lane 8 writes shared_mem[8] and lane 0 reads it
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: no automatic fix: the loop's condition is lane-dependent, so lanes leave it at different iterations
  // CHECK-MESSAGES: :[[@LINE-4]]:3: note: a __syncwarp() in this loop would be reached by a different set of lanes on each iteration
  if (idx == 0)
    a[0] = shared_mem[0];
}
// CHECK-FIXES: shared_mem[idx] = a[idx];
// CHECK-FIXES: __syncwarp(0xffffffff);
// CHECK-FIXES: for (int threshold = 16; idx < threshold; threshold >>= 1)
// CHECK-FIXES: shared_mem[idx] += shared_mem[idx + threshold];
