// A library template in a system header may run the user's functor or
// helper in only some lanes. warpfix does not analyse the code of system
// headers, so a function that it calls has callers whose lanes are unknown:
// no fix, with a note at the library's call. The user's own calls alone
// would have proven the full mask.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache %t/k.cu -- -isystem %S/Inputs/system-header-callers 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 1 %warpfix --no-cache --fix %t/k.cu -- -isystem %S/Inputs/system-header-callers
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --input-file=%t/k.cu
// RUN: cp %t/k.cu %t/once.cu
// RUN: %expect-exit 1 %warpfix --no-cache --fix %t/k.cu -- -isystem %S/Inputs/system-header-callers 2>&1 | FileCheck %s --check-prefix=IDEMPOTENT
// RUN: diff %t/once.cu %t/k.cu
// IDEMPOTENT: 3 findings in 1 file (0 fixable)
#include <library.h>

struct Shift {
  int *out;
  __device__ void operator()(int v) const {
    out[threadIdx.x] = __shfl_down(v, 1);
  }
};

__device__ int helper(int v) { return __shfl_xor(v, 1); }

__device__ int user_hook(int v) { return __shfl_up(v, 1); }

// Called by the user's code alone, in every lane: fixed.
__device__ int alone(int v) { return __shfl_xor(v, 2); }

__global__ void k(int *p) {
  Shift shift{p};
  shift(p[0]);
  apply_to_first_five(shift, p[1]);
  p[2] = helper(p[2]);
  apply_to_first_five(helper, p[3]);
  p[4] = user_hook(p[4]) + call_hook_in_some_lanes(p[5]);
  p[6] = alone(p[6]);
}

// CHECK-MESSAGES: :19:24: warning: '__shfl_down' is a legacy warp intrinsic
// CHECK-MESSAGES: library.h:7:5: note: no automatic fix: 'operator()' is called from a system header here, whose code warpfix does not analyse, so the lanes that reach it are unknown
// CHECK-MESSAGES: :23:39: warning: '__shfl_xor' is a legacy warp intrinsic
// CHECK-MESSAGES: note: no automatic fix: the address of 'helper' is taken, so not all of its callers can be seen
// CHECK-MESSAGES: :25:42: warning: '__shfl_up' is a legacy warp intrinsic
// CHECK-MESSAGES: library.h:11:16: note: no automatic fix: 'user_hook' is called from a system header here, whose code warpfix does not analyse, so the lanes that reach it are unknown
// CHECK-MESSAGES: :28:38: warning: '__shfl_xor' is a legacy warp intrinsic
// CHECK-MESSAGES: :28:38: note: every lane of the warp reaches this call, so the full mask is exact

// CHECK-FIXES: out[threadIdx.x] = __shfl_down(v, 1);
// CHECK-FIXES: __device__ int user_hook(int v) { return __shfl_up(v, 1); }
// CHECK-FIXES: __device__ int alone(int v) { return __shfl_xor_sync(0xffffffff, v, 2); }
