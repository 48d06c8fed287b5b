// An object's fields hold what its constructor stores, not only what the
// construction passes: a default member initializer, a constructor body, a
// base or member constructor, or a copy of such an object may give each
// lane its own value. A branch on such a field splits the warp, and the
// mask is a ballot of it. A constructor whose body is not visible leaves the
// field unknown, which is a ballot too. Objects whose constructors store only
// what every lane shares keep the full mask.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 0 %warpfix --no-cache --fix %t/k.cu
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --input-file=%t/k.cu
// RUN: cp %t/k.cu %t/once.cu
// RUN: %expect-exit 0 %warpfix --no-cache --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=IDEMPOTENT
// RUN: diff %t/once.cu %t/k.cu
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 -rdc=true %t/k.cu %}
// IDEMPOTENT: 0 findings in 0 files (0 fixable)

struct Lane { int id = threadIdx.x & 31; };
struct Lane2 { int id; __device__ Lane2() { id = threadIdx.x & 31; } };
struct Lane3 {
  int id;
  __device__ explicit Lane3(int b) : id(b + (threadIdx.x & 31)) {}
};
struct Wrapped { Lane inner; };
struct Derived : Lane { int extra = 0; };
struct Opaque { int id; __device__ Opaque(); };
struct Uniform { int n; __device__ explicit Uniform(int b) { n = b * 2; } };
struct Plain { int n; };

__global__ void member_initializer(int *out, int v) {
  Lane l;
  if (l.id < 12) out[0] = __shfl_down(v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: '__shfl_down' is a legacy
  // CHECK-MESSAGES: :[[@LINE-2]]:27: note: only some lanes reach this call
}
// CHECK-FIXES:  const unsigned warpfix_mask_[[#]] = __ballot_sync(0xffffffff, l.id < 12);
// CHECK-FIXES-NEXT:  if (l.id < 12) out[0] = __shfl_down_sync(warpfix_mask_[[#]], v, 1);

__global__ void body_store(int *out, int v) {
  Lane2 l;
  if (l.id < 12) out[1] = __shfl_down(v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: '__shfl_down' is a legacy
  // CHECK-MESSAGES: :[[@LINE-2]]:27: note: only some lanes reach this call
}
// CHECK-FIXES:  const unsigned warpfix_mask_[[#]] = __ballot_sync(0xffffffff, l.id < 12);
// CHECK-FIXES-NEXT:  if (l.id < 12) out[1] = __shfl_down_sync(warpfix_mask_[[#]], v, 1);

// The argument is the same in every lane; the initializer adds the lane.
__global__ void uniform_argument(int *out, int v) {
  Lane3 l(blockIdx.x);
  if (l.id < 12) out[2] = __shfl_down(v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: '__shfl_down' is a legacy
  // CHECK-MESSAGES: :[[@LINE-2]]:27: note: only some lanes reach this call
}
// CHECK-FIXES:  const unsigned warpfix_mask_[[#]] = __ballot_sync(0xffffffff, l.id < 12);
// CHECK-FIXES-NEXT:  if (l.id < 12) out[2] = __shfl_down_sync(warpfix_mask_[[#]], v, 1);

__global__ void copied(int *out, int v) {
  Lane a;
  Lane b = a;
  if (b.id < 12) out[3] = __shfl_down(v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: '__shfl_down' is a legacy
  // CHECK-MESSAGES: :[[@LINE-2]]:27: note: only some lanes reach this call
}
// CHECK-FIXES:  const unsigned warpfix_mask_[[#]] = __ballot_sync(0xffffffff, b.id < 12);
// CHECK-FIXES-NEXT:  if (b.id < 12) out[3] = __shfl_down_sync(warpfix_mask_[[#]], v, 1);

__global__ void member_object(int *out, int v) {
  Wrapped w;
  if (w.inner.id < 12) out[4] = __shfl_down(v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: '__shfl_down' is a legacy
  // CHECK-MESSAGES: :[[@LINE-2]]:33: note: only some lanes reach this call
}
// CHECK-FIXES:  const unsigned warpfix_mask_[[#]] = __ballot_sync(0xffffffff, w.inner.id < 12);
// CHECK-FIXES-NEXT:  if (w.inner.id < 12) out[4] = __shfl_down_sync(warpfix_mask_[[#]], v, 1);

__global__ void base_class(int *out, int v) {
  Derived d;
  if (d.id < 12) out[5] = __shfl_down(v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: '__shfl_down' is a legacy
  // CHECK-MESSAGES: :[[@LINE-2]]:27: note: only some lanes reach this call
}
// CHECK-FIXES:  const unsigned warpfix_mask_[[#]] = __ballot_sync(0xffffffff, d.id < 12);
// CHECK-FIXES-NEXT:  if (d.id < 12) out[5] = __shfl_down_sync(warpfix_mask_[[#]], v, 1);

__global__ void braced(int *out, int v) {
  Lane l{};
  if (l.id < 12) out[6] = __shfl_down(v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: '__shfl_down' is a legacy
  // CHECK-MESSAGES: :[[@LINE-2]]:27: note: only some lanes reach this call
}
// CHECK-FIXES:  const unsigned warpfix_mask_[[#]] = __ballot_sync(0xffffffff, l.id < 12);
// CHECK-FIXES-NEXT:  if (l.id < 12) out[6] = __shfl_down_sync(warpfix_mask_[[#]], v, 1);

// Defined in another unit (hence -rdc=true above): what it stores is unknown.
__global__ void unseen_body(int *out, int v) {
  Opaque o;
  if (o.id < 12) out[7] = __shfl_down(v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: '__shfl_down' is a legacy
  // CHECK-MESSAGES: :[[@LINE-2]]:27: note: only some lanes reach this call
}
// CHECK-FIXES:  const unsigned warpfix_mask_[[#]] = __ballot_sync(0xffffffff, o.id < 12);
// CHECK-FIXES-NEXT:  if (o.id < 12) out[7] = __shfl_down_sync(warpfix_mask_[[#]], v, 1);

// Traps: these fields are the same in every lane, so every lane reaches the
// call (checked with the fixed text).
__global__ void uniform_body(int *out, int v) {
  Uniform u(blockIdx.x);
  if (u.n < 12) out[8] = __shfl_down(v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: '__shfl_down' is a legacy
  // CHECK-MESSAGES: :[[@LINE-2]]:26: note: every lane of the warp reaches this call, so the full mask is exact
}
// CHECK-FIXES:  if (u.n < 12) out[8] = __shfl_down_sync(0xffffffff, v, 1);

__global__ void plain(int *out, int v) {
  Plain p{(int)blockIdx.x};
  if (p.n < 12) out[9] = __shfl_down(v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: '__shfl_down' is a legacy
  // CHECK-MESSAGES: :[[@LINE-2]]:26: note: every lane of the warp reaches this call, so the full mask is exact
}
// CHECK-FIXES:  if (p.n < 12) out[9] = __shfl_down_sync(0xffffffff, v, 1);
