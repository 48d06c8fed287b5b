// An instantiation of a template shares the template's own break and
// continue statements: clang rebuilds the rest of the body, but not them.
// Climbing from such a statement to the conditions that guard it must stay
// in the instantiation; through the template as written it never met the
// loop, read every condition up to the top of the kernel, and took the
// break under a uniform ballot for one under a lane-dependent condition.
// RUN: %expect-exit 0 %warpfix --no-cache %s 2>&1 | FileCheck %s --implicit-check-not=warning:
// CHECK: 0 findings in 0 files (0 fixable)

template <class T>
__global__ void strided(const int *limits, T *out) {
  int lane = threadIdx.x & 31, m = limits[threadIdx.x];
  T s = 0;
  for (int j = lane;;) {
    const unsigned active = __ballot_sync(0xffffffff, j < m);
    if (active == 0)
      break;
    if (j >= m)
      continue;
    s += __shfl_sync(active, (T)j, 0);
    j += 32;
  }
  out[threadIdx.x] = s;
}
template __global__ void strided<int>(const int *, int *);
template __global__ void strided<float>(const int *, float *);
