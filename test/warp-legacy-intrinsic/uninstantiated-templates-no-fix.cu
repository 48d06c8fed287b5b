// Templates that nothing in the unit instantiates, where no fix is right for
// every instantiation and every caller (issue 15, item 7): each is reported,
// with a note that says why it is not fixed, and --fix leaves the file as it
// was.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 1 %warpfix --no-cache --fix %t/k.cu
// RUN: diff %s %t/k.cu
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/k.cu %}

// A __device__ template that nobody calls: its callers are unknown, so this
// unit abstains, and one that instantiates it decides.
template <class T>
__device__ T warp_sum(T v) {
  for (int offset = 16; offset > 0; offset >>= 1)
    v += __shfl_xor(v, offset);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: '__shfl_xor' is a legacy
  // CHECK-MESSAGES: :[[@LINE-4]]:14: note: no automatic fix (this translation unit abstains): 'warp_sum' is template code that nothing calls or instantiates in this translation unit, so who reaches it is unknown
  // CHECK-MESSAGES: :[[@LINE-3]]:10: note: candidate rewrite: __shfl_xor_sync(<mask>, ...) where <mask> names the lanes that reach this call
  // CHECK-MESSAGES: :[[@LINE-4]]:10: note: no automatic fix: every analysed translation unit abstains
  return v;
}

// Recursive steps, ended by an explicit specialization: Iterate<0> is code of
// its own, not an instantiation of the template, which was reported nowhere.
template <unsigned OFFSET>
struct Iterate {
  template <class T> __device__ static T step(T v) {
    v += __shfl_down(v, OFFSET);
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: '__shfl_down' is a legacy
    // CHECK-MESSAGES: :[[@LINE-3]]:42: note: no automatic fix (this translation unit abstains): 'step' is template code that nothing calls or instantiates
    // CHECK-MESSAGES: :[[@LINE-3]]:10: note: candidate rewrite: __shfl_down_sync(<mask>, ...)
    // CHECK-MESSAGES: :[[@LINE-4]]:10: note: no automatic fix: every analysed translation unit abstains
    return Iterate<OFFSET / 2>::step(v);
  }
};
template <> struct Iterate<0> {
  template <class T> __device__ static T step(T v) { return v; }
};

// A branch on a value of type T: `v > T(0)` may call an overloaded operator in
// some instantiation, so it is not evaluated again in a ballot.
template <class T>
__global__ void positive_only(T *io) {
  T v = io[threadIdx.x];
  if (v > T(0))
    v += __shfl_down(v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: '__shfl_down' is a legacy
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: no automatic fix: the branch condition's type depends on a template parameter, so what it calls (an overloaded operator, a conversion) is known only per instantiation, and it cannot be evaluated again in a ballot
  // CHECK-MESSAGES: :[[@LINE-3]]:10: note: candidate rewrite: __shfl_down_sync(<mask>, ...)
  io[threadIdx.x] = v;
}

// The loop counter goes to a dependent call that an instantiation may bind
// to a reference: its value, and so the trip count, is not known.
template <class T> __device__ void advance(T v, int &offset);
template <class T>
__global__ void unknown_step(T *io) {
  T v = io[threadIdx.x];
  for (int offset = 16; offset > 0; advance(v, offset))
    v += __shfl_down(v, offset);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: '__shfl_down' is a legacy
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: no automatic fix: the loop's condition is lane-dependent
  // CHECK-MESSAGES: :[[@LINE-3]]:10: note: candidate rewrite: __shfl_down_sync(<mask>, ...)
  io[threadIdx.x] = v;
}

// The name also finds a user's own overload, which some instantiations call
// instead of the toolkit's intrinsic: renaming the call would break them.
struct Pair { int a, b; };
__device__ Pair __shfl_xor(Pair p, int lane, int width = 32);
template <class T>
__global__ void pairs(T *io) {
  T v = io[threadIdx.x];
  io[threadIdx.x] = __shfl_xor(v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: '__shfl_xor' is a legacy
  // CHECK-MESSAGES: :[[@LINE-6]]:17: note: no automatic fix: in this template the call's arguments depend on a template parameter, and the name also finds this declaration, which some instantiations may call instead of the toolkit's intrinsic
  // CHECK-MESSAGES: :[[@LINE-3]]:21: note: candidate rewrite: __shfl_xor_sync(<mask>, ...)
}
