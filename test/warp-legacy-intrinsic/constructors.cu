// A constructor is called where its object is made: a temporary, a variable,
// an implicit conversion, `new`, a base or member initializer. Its entry is
// reached by the lanes that reach those places, as for any device function,
// so a warp-synchronous constructor called by every lane is fixed, and one
// made by some lanes only is not (constructors-refused.cu).
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 0 %warpfix --no-cache --fix %t/k.cu
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --input-file=%t/k.cu
// RUN: %expect-exit 0 %warpfix --no-cache %t/k.cu 2>&1 | FileCheck %s --check-prefix=SECOND
// SECOND: 0 findings in 0 files (0 fixable)
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/k.cu %}

// A class template's constructor, made as a temporary in a kernel that every
// lane runs.
template <typename T>
struct WarpScan {
  T total;
  __device__ WarpScan(T &x) {
    for (int d = 1; d < 32; d *= 2) {
      T y = __shfl_up(x, d);
      // CHECK-MESSAGES: k.cu:[[@LINE-1]]:13: warning: '__shfl_up' is a legacy
      // CHECK-FIXES:       T y = __shfl_up_sync(0xffffffff, x, d);
      if ((threadIdx.x & 31) >= d) x += y;
    }
    total = __shfl(x, 31);
    // CHECK-MESSAGES: k.cu:[[@LINE-1]]:13: warning: '__shfl' is a legacy
    // CHECK-FIXES:     total = __shfl_sync(0xffffffff, x, 31);
  }
};

__global__ void scan(int *io, int *sums) {
  int x = io[threadIdx.x];
  int t = WarpScan<int>(x).total;
  io[threadIdx.x] = x;
  if (threadIdx.x % 32 == 0) sums[threadIdx.x / 32] = t;
}

// Made by a variable's declaration, by an implicit conversion and by `new`,
// each reached by every lane.
struct Vote {
  unsigned bits;
  __device__ Vote(int p) : bits(__ballot(p)) {}
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:33: warning: '__ballot' is a legacy
  // CHECK-FIXES:   __device__ Vote(int p) : bits(__ballot_sync(0xffffffff, p)) {}
};

__global__ void votes(unsigned *out) {
  Vote a(threadIdx.x & 1);
  Vote b = threadIdx.x > 3;
  Vote *c = new Vote(threadIdx.x < 7);
  out[threadIdx.x] = a.bits ^ b.bits ^ c->bits;
  delete c;
}

// A base initializer: Derived's constructor is reached by every lane, so
// Base's is.
struct Base {
  int v;
  __device__ explicit Base(int x) { v = __shfl_xor(x, 1); }
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:41: warning: '__shfl_xor' is a legacy
  // CHECK-FIXES:   __device__ explicit Base(int x) { v = __shfl_xor_sync(0xffffffff, x, 1); }
};
struct Derived : Base {
  __device__ explicit Derived(int x) : Base(x + 1) {}
};

__global__ void derived(int *io) { io[threadIdx.x] = Derived(io[threadIdx.x]).v; }
