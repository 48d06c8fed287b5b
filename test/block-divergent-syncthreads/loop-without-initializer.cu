// A for loop whose counter is declared without an initializer: the test for
// a launch-decided trip count read the initializer unchecked, and crashed.
// Not compiled with nvcc: the counter is read uninitialized, on purpose.
// RUN: %expect-exit 1 %warpfix --no-cache --checks=-*,block-* %s 2>&1 | FileCheck %s --implicit-check-not=warning:
// CHECK: :[[@LINE+5]]:5: warning: not every thread of the block reaches this '__syncthreads()'
// CHECK: 1 finding in 1 file (0 fixable)

__global__ void counter_without_initializer(float *out) {
  for (int pos; pos < 256; pos += threadIdx.x)
    __syncthreads();
}
