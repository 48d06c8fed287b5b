// warpfix parses what nvcc would compile: __CUDACC_VER_MAJOR__ and friends are
// the toolkit's, so `#if __CUDACC_VER_MAJOR__ >= 9` takes the _sync branch and
// its full mask under a lane-dependent branch is what gets reported; the
// legacy #else, which nvcc 13 never compiles, is not. A -D of the user's wins.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache %t/k.cu 2>&1 | FileCheck %s --implicit-check-not=warning:
// RUN: %expect-exit 1 %warpfix --no-cache %t/k.cu -- -U__CUDACC_VER_MAJOR__ -D__CUDACC_VER_MAJOR__=8 2>&1 | FileCheck %s --check-prefix=OLD --implicit-check-not=warning:

__global__ void k(int *o, int n) {
  int v = o[threadIdx.x];
  if (threadIdx.x < n) {
#if __CUDACC_VER_MAJOR__ >= 9
    v += __shfl_down_sync(0xffffffff, v, 1);
    // CHECK: k.cu:[[@LINE-1]]:27: warning: {{.*}}[warp-full-mask-divergent]
#else
    v += __shfl_down(v, 1);
    // OLD: k.cu:[[@LINE-1]]:10: warning: '__shfl_down' is a legacy
#endif
  }
  o[threadIdx.x] = v;
}

// The version macros carry the toolkit's numbers.
#if !defined(__CUDACC_VER_MINOR__) || !defined(__CUDACC_VER_BUILD__) || __CUDACC_VER_MAJOR__ < 13
#error "nvcc's version macros are missing"
#endif
