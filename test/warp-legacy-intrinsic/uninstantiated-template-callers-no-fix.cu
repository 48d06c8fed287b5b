// Helper templates whose callers, in templates that nothing instantiates,
// do not prove who reaches them (issue 43, item 2): each is reported with
// the reason, and --fix leaves the file as it was.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 1 %warpfix --no-cache --fix %t/k.cu
// RUN: diff %s %t/k.cu
// nvcc does not compile the file: its functions that are not templates keep
// their legacy calls, which is the point.

// Called by the low half of each warp only: the mask would have to come from
// the caller, and a template's callers cannot all be edited.
template <class T>
__device__ T pair_sum(T v) {
  return v + __shfl_xor(v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: '__shfl_xor' is a legacy
  // CHECK-MESSAGES: :[[@LINE-3]]:14: note: the mask cannot be passed in as a new parameter: 'pair_sum' is a template
  // CHECK-MESSAGES: :[[@LINE+7]]:9: note: no automatic fix: 'pair_sum' is called here by only some lanes of the warp (the call is under a lane-dependent branch)
}

template <class T>
__global__ void low_half_pairs(T *io) {
  T v = io[threadIdx.x];
  if (threadIdx.x % 32 < 16)
    v = pair_sum(v);
  io[threadIdx.x] = v;
}

// Its only caller is a __device__ template that nothing calls: who reaches
// either is unknown, and the unit abstains.
template <class T>
__device__ T rotate(T v) {
  return __shfl(v, (threadIdx.x + 1) % 32);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: '__shfl' is a legacy
  // CHECK-MESSAGES: :[[@LINE+5]]:14: note: no automatic fix (this translation unit abstains): 'rotate_twice' is template code that nothing calls or instantiates in this translation unit, so who reaches it is unknown
  // CHECK-MESSAGES: note: no automatic fix: every analysed translation unit abstains
}

template <class T>
__device__ T rotate_twice(T v) {
  return rotate(rotate(v));
}

// Called from a lambda: the lambda's call operator is the caller, and the
// call of the lambda, through a variable of dependent type, is not counted.
template <class T>
__device__ T vote_positive(T v) {
  return __any(v > T(0));
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: '__any' is a legacy
  // CHECK-MESSAGES: :[[@LINE+6]]:15: note: no automatic fix (this translation unit abstains): 'operator()' is template code that nothing calls or instantiates
  // CHECK-MESSAGES: note: no automatic fix: every analysed translation unit abstains
}

template <class T>
__global__ void through_lambda(T *io) {
  auto vote = [](T v) { return vote_positive(v); };
  io[threadIdx.x] = vote(io[threadIdx.x]);
}

// Found only by argument-dependent lookup: the name, where the template is
// written, finds nothing, so the call counts for no function.
namespace geometry {
struct Point { float x, y; };
__device__ Point lane_min(Point p) {
  p.x = fminf(p.x, __shfl_xor(p.x, 1));
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: '__shfl_xor' is a legacy
  // CHECK-MESSAGES: note: no automatic fix (this translation unit abstains): 'lane_min' is not called in this translation unit, so who reaches it is unknown
  // CHECK-MESSAGES: note: no automatic fix: every analysed translation unit abstains
  return p;
}
} // namespace geometry

template <class P>
__global__ void nearest(P *points) {
  points[threadIdx.x] = lane_min(points[threadIdx.x]);
}

// A function that is not a template, called with an argument of dependent
// type by some lanes only: its parameter list is not extended, since an
// instantiation may resolve the call to another overload.
__device__ int scaled(int v) {
  return __shfl_down(v, 1) * 2;
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: '__shfl_down' is a legacy
  // CHECK-MESSAGES: :[[@LINE+8]]:9: note: the mask cannot be passed in as a new parameter: this call of 'scaled' is in a template, where its arguments decide which function it calls
  // CHECK-MESSAGES: note: no automatic fix: 'scaled' is called here by only some lanes of the warp
}

template <class T>
__global__ void scale_odd(T *io) {
  T v = io[threadIdx.x];
  if (threadIdx.x & 1)
    v = scaled(v);
  io[threadIdx.x] = v;
}


// Once calls through templates count, every way that a template as written
// may reach a helper must: each of the following calls the helper from the
// low half of the warp only, while `whole_warp` calls each from every lane.
namespace shapes {
struct Pol {
  template <class T> __device__ static T f(T v) { return v + __shfl_xor(v, 1); }
  // CHECK-MESSAGES: :[[@LINE-1]]:62: warning: '__shfl_xor' is a legacy
  // CHECK-MESSAGES: :[[@LINE+64]]:9: note: no automatic fix: a name in a template, which only an instantiation resolves, may call 'f' here, and its lanes are unknown
};
template <class T> __device__ T by_adl(T v) { return v + __shfl_xor(v, 1); }
// CHECK-MESSAGES: :[[@LINE-1]]:58: warning: '__shfl_xor' is a legacy
// CHECK-MESSAGES: :[[@LINE+60]]:19: note: no automatic fix: a name in a template, which only an instantiation resolves, may call 'by_adl' here, and its lanes are unknown
struct Value { int x; };
template <class V> __device__ V by_adl_resolved(V v) { return V{__shfl_xor(v.x, 1)}; }
// CHECK-MESSAGES: :[[@LINE-1]]:65: warning: '__shfl_xor' is a legacy
// CHECK-MESSAGES: :[[@LINE+56]]:31: note: no automatic fix: a name in a template, which only an instantiation resolves, may call 'by_adl_resolved' here, and its lanes are unknown
} // namespace shapes

template <class T> __device__ T by_address(T v) { return v + __shfl_xor(v, 1); }
// CHECK-MESSAGES: :[[@LINE-1]]:62: warning: '__shfl_xor' is a legacy
// CHECK-MESSAGES: :[[@LINE-2]]:33: note: no automatic fix: the address of 'by_address' is taken, so not all of its callers can be seen
template <class T> __device__ T by_instance(T v) { return v + __shfl_xor(v, 1); }
// CHECK-MESSAGES: :[[@LINE-1]]:63: warning: '__shfl_xor' is a legacy
// CHECK-MESSAGES: :[[@LINE+29]]:9: note: no automatic fix: 'by_instance' is called here by only some lanes of the warp (the call is under a lane-dependent branch)
template <class T> __device__ T by_constexpr(T v) { return v + __shfl_xor(v, 1); }
// CHECK-MESSAGES: :[[@LINE-1]]:64: warning: '__shfl_xor' is a legacy
// CHECK-MESSAGES: :[[@LINE+28]]:11: note: no automatic fix: 'by_constexpr' is called here by only some lanes of the warp (the call is under a lane-dependent branch)
template <class T> __device__ T by_initializer(T v) { return v + __shfl_xor(v, 1); }
// CHECK-MESSAGES: :[[@LINE-1]]:66: warning: '__shfl_xor' is a legacy
// CHECK-MESSAGES: :[[@LINE+1]]:40: note: no automatic fix: a name in a template, which only an instantiation resolves, may call 'by_initializer' here, and its lanes are unknown
template <class T> struct Lane { T x = by_initializer(T(threadIdx.x)); };

template <class T>
__global__ void whole_warp(T *io) {
  T v = io[threadIdx.x];
  v = shapes::Pol::f(v) + shapes::by_adl(v) + by_address(v) + by_instance(v) +
      by_constexpr(v) + by_initializer(v);
  io[threadIdx.x] = v;
}

// by_instance is also instantiated, from every lane, by a kernel that is no
// template: the calls through templates still count for that instantiation.
__global__ void plain(int *io) { io[threadIdx.x] = by_instance(io[threadIdx.x]); }

// This unit instantiates low_half for int only, where `if constexpr`
// discards the call of by_constexpr; another instantiation keeps it.
template <class T>
__global__ void low_half(T *io) {
  T v = io[threadIdx.x];
  if (threadIdx.x % 32 < 16) {
    // The name is taken, not called: its address may go anywhere.
    v = (&by_address)(v);
    v = by_instance(v);
    if constexpr (sizeof(T) == 8)
      v = by_constexpr(v);
    // The default member initializer calls by_initializer.
    Lane<T> lane;
    v += lane.x;
  }
  io[threadIdx.x] = v;
}
template __global__ void low_half<int>(int *);

// `P::f`, which an instantiation resolves, may be shapes::Pol::f; only
// argument-dependent lookup, at an instantiation, finds shapes::by_adl, and
// shapes::by_adl_resolved, whose only other call, from every lane, names it
// (in a kernel that is no template, so the call was always counted).
template <class P, class T>
__global__ void low_half_names(T *io) {
  T v = io[threadIdx.x];
  if (threadIdx.x % 32 < 16)
    v = P::f(v) + by_adl(v) + by_adl_resolved(v);
  io[threadIdx.x] = v;
}

__global__ void values(shapes::Value *p) {
  p[threadIdx.x] = shapes::by_adl_resolved(p[threadIdx.x]);
}
