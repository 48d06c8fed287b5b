// Helpers reached by different lanes whose mask cannot safely come in as a
// new parameter: reported as before, without a fix, with a note saying what
// stands in the way (thread-mask.cu has the ones that are fixed).
// RUN: rm -rf %t && mkdir -p %t/inc && cp %s %t/k.cu && cp %S/Inputs/thread-mask/helper.cuh %t/inc/helper.cuh
// RUN: %expect-exit 1 %warpfix --no-cache --header-filter='.*' %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 1 %warpfix --no-cache --header-filter='.*' --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=SUMMARY
// RUN: diff %s %t/k.cu
// RUN: diff %S/Inputs/thread-mask/helper.cuh %t/inc/helper.cuh
// SUMMARY: 13 findings in 2 files (0 fixable)
//
// A header analysed on its own as a translation unit: the units that include
// it may call its helpers.
// RUN: cp %S/Inputs/thread-mask/helper.cuh %t/alone.cuh
// RUN: %expect-exit 1 %warpfix --no-cache %t/alone.cuh 2>&1 | FileCheck %s --check-prefix=ALONE
// ALONE: alone.cuh:3:16: note: the mask cannot be passed in as a new parameter: the file is a header analysed on its own, so the units that include it may call 'headerSum'
// ALONE: 1 finding in 1 file (0 fixable)

#include "inc/helper.cuh"
// CHECK-MESSAGES: helper.cuh:5:10: warning: '__shfl_down' is a legacy
// A run of one file may leave out other units that include the header
// (thread-mask-shared-header.test has the runs over the whole project).
// CHECK-MESSAGES: helper.cuh:3:16: note: the new parameter goes into a header that other translation units may include: this fix is made only in a run over the whole project
// CHECK-MESSAGES: helper.cuh:5:10: note: no automatic fix: this run is over part of the project, and a unit left out that includes the header may call the helper too, which the new parameter would break

__device__ int taken(int v) { return __shfl_xor(v, 1); }
// CHECK-MESSAGES: :[[@LINE-1]]:38: warning: '__shfl_xor' is a legacy
// CHECK-MESSAGES: :[[@LINE-2]]:16: note: no automatic fix: the address of 'taken' is taken, so not all of its callers can be seen
__device__ int (*takenPointer)(int) = taken;

extern "C" __device__ int cApi(int v) { return __shfl_xor(v, 2); }
// CHECK-MESSAGES: :[[@LINE-1]]:48: warning: '__shfl_xor' is a legacy
// CHECK-MESSAGES: :[[@LINE-2]]:27: note: the mask cannot be passed in as a new parameter: 'cApi' is extern "C", an interface for code that is not analysed here

template <typename T> __device__ T tmpl(T v) { return __shfl_xor(v, 4); }
// CHECK-MESSAGES: :[[@LINE-1]]:55: warning: '__shfl_xor' is a legacy
// CHECK-MESSAGES: :[[@LINE-2]]:36: note: the mask cannot be passed in as a new parameter: 'tmpl' is a template

__device__ int defaulted(int v, int k = 1) { return __shfl_xor(v, k); }
// CHECK-MESSAGES: :[[@LINE-1]]:53: warning: '__shfl_xor' is a legacy
// CHECK-MESSAGES: :[[@LINE-2]]:37: note: the mask cannot be passed in as a new parameter: 'defaulted' has a default argument

__device__ int overloaded(int v) { return __shfl_xor(v, 16); }
// CHECK-MESSAGES: :[[@LINE-1]]:43: warning: '__shfl_xor' is a legacy
// CHECK-MESSAGES: :[[@LINE+1]]:18: note: the mask cannot be passed in as a new parameter: 'overloaded' is overloaded
__device__ float overloaded(float v) { return v; }

#define CALL_VIA_MACRO(x) viaMacro(x)
__device__ int viaMacro(int v) { return __shfl_up(v, 1); }
// CHECK-MESSAGES: :[[@LINE-1]]:41: warning: '__shfl_up' is a legacy
// CHECK-MESSAGES: :[[@LINE-3]]:27: note: the mask cannot be passed in as a new parameter: this call of 'viaMacro' is written by a macro

__host__ __device__ int hostDevice(int v) { return __shfl_up(v, 2); }
// CHECK-MESSAGES: :[[@LINE-1]]:52: warning: '__shfl_up' is a legacy
// CHECK-MESSAGES: :[[@LINE-2]]:25: note: the mask cannot be passed in as a new parameter: 'hostDevice' is also host code

__device__ int inSkippedCode(int v) { return __shfl_up(v, 3); }
// CHECK-MESSAGES: :[[@LINE-1]]:46: warning: '__shfl_up' is a legacy
// CHECK-MESSAGES: :[[@LINE-2]]:16: note: the mask cannot be passed in as a new parameter: 'inSkippedCode' is named 4 times in the file, but has 3 declarations and calls here

// One caller's lanes are unknown: the branch has side effects.
__device__ int unknownCaller(int v) { return __shfl_up(v, 4); }
// CHECK-MESSAGES: :[[@LINE-1]]:46: warning: '__shfl_up' is a legacy
// CHECK-MESSAGES: note: no automatic fix: 'unknownCaller' is called here by only some lanes of the warp (the branch condition has side effects

// Recursive.
__device__ int recursive(int v, int depth) {
  return depth ? recursive(__shfl_down(v, depth), depth / 2) : v;
  // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: '__shfl_down' is a legacy
  // CHECK-MESSAGES: note: no automatic fix: {{.*}}
}

// Called from a helper that is itself reached by some lanes only.
__device__ int inner(int v) { return __shfl_down(v, 1); }
// CHECK-MESSAGES: :[[@LINE-1]]:38: warning: '__shfl_down' is a legacy
// CHECK-MESSAGES: note: no automatic fix: 'inner' is called here by only some lanes of the warp ('outer' is called here by only some lanes of the warp (the call is under a lane-dependent branch))
__device__ int outer(int v) { return inner(v); }

// The helper adds a lane-dependent branch of its own before the call.
__device__ int ownBranch(int v) {
  if (threadIdx.x % 2)
    v = __shfl_down(v, 2);
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: '__shfl_down' is a legacy
  // CHECK-MESSAGES: note: no automatic fix: 'ownBranch' is called here by only some lanes of the warp (the call is under a lane-dependent branch)
  return v;
}

__global__ void k(int *io, int *counter) {
  int v = io[threadIdx.x];
  v = taken(v) + cApi(v) + tmpl(v) + defaulted(v) + overloaded(v) +
      CALL_VIA_MACRO(v) + hostDevice(v) + inSkippedCode(v) +
      unknownCaller(v) + recursive(v, 16) + inner(v) + ownBranch(v);
  if (threadIdx.x < 16) {
    v = taken(v) + cApi(v) + tmpl(v) + defaulted(v) + overloaded(v) +
        CALL_VIA_MACRO(v) + hostDevice(v) + inSkippedCode(v) + outer(v) +
        ownBranch(v);
  }
  if (atomicAdd(counter, 1) < 16)
    v = unknownCaller(v);
#if __CUDA_ARCH__ < 300
  v = inSkippedCode(v);
#endif
  io[threadIdx.x] = v;
}
