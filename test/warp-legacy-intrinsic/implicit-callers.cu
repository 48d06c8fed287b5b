// Functions that run without a call the analysis can list: a destructor (at
// the end of its object's scope, or by delete) and an override of a virtual
// function (through a call on a base class). The lanes that reach them are
// unknown, whatever the visible calls say, so no mask is proven.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 1 %warpfix --no-cache --fix %t/k.cu
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --input-file=%t/k.cu
// RUN: cp %t/k.cu %t/once.cu
// RUN: %expect-exit 1 %warpfix --no-cache --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=IDEMPOTENT
// RUN: diff %t/once.cu %t/k.cu
// IDEMPOTENT: 3 findings in 1 file (0 fixable)
struct Voter {
  int *out;
  __device__ ~Voter() { out[threadIdx.x] = __popc(__ballot(out[threadIdx.x] > 0)); }
};

struct Shape {
  __device__ virtual int votes(int v) { return __popc(__ballot(v > 0)); }
};
struct Square : Shape {
  __device__ int votes(int v) override { return __popc(__ballot(v > 1)); }
};

__global__ void converged(int *out) {
  Voter *p = reinterpret_cast<Voter *>(out + 64);
  p->~Voter();
  Square s;
  out[threadIdx.x] = s.Square::votes(out[threadIdx.x]);
}

__global__ void divergent(int *out, Shape **shapes) {
  if (threadIdx.x & 1) {
    Voter v{out};
  }
  out[threadIdx.x] += shapes[threadIdx.x]->votes(out[threadIdx.x]);
}

// A trap: a plain member function is called where the code shows.
struct Counter {
  __device__ int count(int v) { return __popc(__ballot(v > 0)); }
};
__global__ void plain(int *out) {
  Counter c;
  out[threadIdx.x] = c.count(out[threadIdx.x]);
}

// CHECK-MESSAGES: :15:51: warning: '__ballot' is a legacy warp intrinsic
// CHECK-MESSAGES: :15:14: note: no automatic fix: the lanes that reach '~Voter' are unknown: it is a destructor, which runs where its object's scope ends or where it is deleted, places that warpfix does not follow
// CHECK-MESSAGES: :19:55: warning: '__ballot' is a legacy warp intrinsic
// CHECK-MESSAGES: :19:26: note: no automatic fix: the lanes that reach 'votes' are unknown: it is virtual, and a call through a base class dispatches to it from places that warpfix does not follow
// CHECK-MESSAGES: :22:56: warning: '__ballot' is a legacy warp intrinsic
// CHECK-MESSAGES: :22:18: note: no automatic fix: the lanes that reach 'votes' are unknown: it is virtual
// CHECK-MESSAGES: :41:47: warning: '__ballot' is a legacy warp intrinsic
// CHECK-MESSAGES: :41:47: note: every lane of the warp reaches this call, so the full mask is exact
// CHECK-FIXES:  __device__ int count(int v) { return __popc(__ballot_sync(0xffffffff, v > 0)); }
