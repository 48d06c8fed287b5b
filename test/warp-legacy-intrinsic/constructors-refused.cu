// A constructor reached by only some lanes, or from host code only, is
// reported without a fix, and the note points at the place where the object
// is made.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 1 %warpfix --no-cache --fix %t/k.cu
// RUN: diff %s %t/k.cu

// Made by half the warp: no fix, and the note points at the place the
// object is made.
struct Partial {
  int v;
  __device__ explicit Partial(int x) : v(__shfl_down(x, 1)) {}
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:42: warning: '__shfl_down' is a legacy
  // CHECK-MESSAGES: k.cu:[[@LINE+5]]:13: note: no automatic fix: 'Partial' is called here by only some lanes of the warp (the call is under a lane-dependent branch)
};

__global__ void partial(int *io) {
  if (threadIdx.x < 16) {
    Partial p(io[threadIdx.x]);
    io[threadIdx.x] = p.v;
  }
}

// Made only in a host function's code: who reaches it on the device is not
// known.
struct Unused {
  int v;
  __host__ __device__ explicit Unused(int x) {
#ifdef __CUDA_ARCH__
    v = __any(x);
    // CHECK-MESSAGES: k.cu:[[@LINE-1]]:9: warning: '__any' is a legacy
    // CHECK-MESSAGES: k.cu:[[@LINE+7]]:28: note: no automatic fix: 'Unused' is called here, where the lanes that arrive are unknown ('onHost' is not device code)
#else
    v = x != 0;
#endif
  }
};

int onHost(int x) { return Unused(x).v; }
