// Accessors that do not make a branch warp-uniform: one that reads the thread
// index, one called on an object written per lane (through a field, or
// through the reference a non-const operator[] returns), and one that reads
// a volatile field. Each condition stays lane-dependent, and a call in it is
// not evaluated again in a ballot, so there is no fix. The fixed cases are in
// accessor-conditions.cu.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 1 %warpfix --no-cache --fix %t/k.cu
// RUN: diff %s %t/k.cu

struct Shape2 {
  unsigned shape_[2];
  __device__ unsigned &operator[](int i) { return shape_[i]; }
  __device__ unsigned lane() { return threadIdx.x & 31u; }
};

struct Flag {
  volatile int ready_;
  __device__ int ready() { return ready_; }
};

__global__ void reads_the_lane(float *out, Shape2 e) {
  float v = out[threadIdx.x];
  if (e.lane() < 16u)
    v += __shfl_down(v, 16);
  out[threadIdx.x] = v;
}

__global__ void written_per_lane(float *out, Shape2 e) {
  float v = out[threadIdx.x];
  Shape2 t = e;
  t.shape_[0] = threadIdx.x;
  if (t[0] < 16u)
    v += __shfl_down(v, 16);
  out[threadIdx.x] = v;
}

__global__ void written_through_reference(float *out, Shape2 e) {
  float v = out[threadIdx.x];
  Shape2 t = e;
  t[0] = threadIdx.x;
  if (t[0] < 16u)
    v += __shfl_down(v, 16);
  out[threadIdx.x] = v;
}

__global__ void volatile_field(float *out, Flag f) {
  float v = out[threadIdx.x];
  if (f.ready() != 0)
    v += __shfl_down(v, 16);
  out[threadIdx.x] = v;
}

// CHECK-MESSAGES: :26:10: warning: '__shfl_down' is a legacy warp intrinsic
// CHECK-MESSAGES: :25:7: note: no automatic fix: the branch condition has side effects, volatile reads or calls, so it cannot be evaluated again in a ballot
// CHECK-MESSAGES: :35:10: warning: '__shfl_down' is a legacy warp intrinsic
// CHECK-MESSAGES: :34:7: note: no automatic fix: the branch condition has side effects
// CHECK-MESSAGES: :44:10: warning: '__shfl_down' is a legacy warp intrinsic
// CHECK-MESSAGES: :43:7: note: no automatic fix: the branch condition has side effects
// CHECK-MESSAGES: :51:10: warning: '__shfl_down' is a legacy warp intrinsic
// CHECK-MESSAGES: :50:7: note: no automatic fix: the branch condition has side effects
