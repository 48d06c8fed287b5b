// The thread-named runtime calls that CUDA 13 removed are renamed to the
// names CUDA 4 gave them, which the runtime's reference calls identical in
// function and which take the same parameters: one token of a host call,
// where the file spells it, written `::cudaDeviceX` so that only the global
// namespace's declarations can answer it (not a member, not a namespace's
// function, not argument-dependent lookup). Refused where the edit would
// reach more than the call (a macro's body, a macro that pastes, stringifies
// or repeats its argument), where the name is not called (an address, which
// may be compared), in device code, and in templates whose arguments decide
// the call. A call in a macro argument that the device's side drops is found
// by name (host-only branches: thread-named-calls-shadowed.cu). The fixed
// file compiles with nvcc 13.
// By default nothing is renamed: the host's side, which warpfix does not
// parse, decides what the new name calls there. The option asks for it.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache %t/k.cu 2>&1 | FileCheck %s --check-prefix=DEFAULT
// DEFAULT: k.cu:{{[0-9]+}}:12: note: no automatic fix: the host's side of the unit, which warpfix does not parse, decides what the new name calls (set CheckOptions cuda-removed-api.RenameThreadCalls: true to rename where the device's side finds no reason against it); call cudaDeviceSynchronize instead
// DEFAULT: 18 findings in 1 file (0 fixable)
// RUN: printf 'CheckOptions:\n  cuda-removed-api.RenameThreadCalls: true\n' > %t/.warpfix.yaml
// RUN: %expect-exit 1 %warpfix --no-cache %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 1 %warpfix --no-cache --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=SUMMARY
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --strict-whitespace --input-file=%t/k.cu
// RUN: cp %t/k.cu %t/once.cu
// RUN: %expect-exit 1 %warpfix --no-cache --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=AGAIN
// RUN: diff %t/once.cu %t/k.cu
// SUMMARY: translation units: 1 analysed clean
// SUMMARY: fixed 10 findings in 1 file; 8 remain
// AGAIN: fixed 0 findings in 0 files; 8 remain

// A unit that clang builds no syntax tree for (an architecture it does not
// know) is read by name: its calls are reported, unfixed.
// RUN: printf 'void f() {\n  cudaThreadSynchronize();\n}\n' > %t/unparsed.cu
// RUN: %expect-exit 2 %warpfix --no-cache --extra-arg=--cuda-gpu-arch=sm_1 %t/unparsed.cu 2>&1 | FileCheck %s --check-prefix=NO-TREE
// NO-TREE: unparsed.cu:2:3: warning: 'cudaThreadSynchronize' is not in CUDA 13's runtime; CUDA 4 renamed it 'cudaDeviceSynchronize'
// NO-TREE: unparsed.cu:2:3: note: not analysed: clang built no syntax tree for this translation unit

// The fixed file minus the calls that stay, for nvcc: every rename
// compiles against CUDA 13's own declarations.
// RUN: grep -v 'STAYS' %t/k.cu > %t/compiles.cu
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/compiles.cu %}

#include <cstdio>

#define CHECK(call)                                                            \
  do {                                                                         \
    if ((call) != cudaSuccess)                                                 \
      std::printf("failed\n");                                                 \
  } while (0)
#define CHECK_NAMED(call)                                                      \
  do {                                                                         \
    if ((call) != cudaSuccess)                                                 \
      std::printf("%s failed\n", #call);                                       \
  } while (0)
#define TWICE(call) ((call), (call))
#define SYNC_ALL() cudaThreadSynchronize()
#define HOST_ONLY(code)

__global__ void kernel(int *p) { p[threadIdx.x] = threadIdx.x; }

struct Stream {
  // A member of the new name: `::` passes it by.
  int cudaDeviceSynchronize() { return 1; }
  int wait() {
    return cudaThreadSynchronize();
    // CHECK-MESSAGES: k.cu:[[@LINE-1]]:12: warning: 'cudaThreadSynchronize' is not in CUDA 13's runtime; CUDA 4 renamed it 'cudaDeviceSynchronize' [cuda-removed-api]
// CHECK-FIXES:    return ::cudaDeviceSynchronize();
  }
};

int run(int *p) {
  kernel<<<1, 32>>>(p);
  cudaThreadSynchronize();
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:3: warning: 'cudaThreadSynchronize' is not in CUDA 13's runtime; CUDA 4 renamed it 'cudaDeviceSynchronize' [cuda-removed-api]
// CHECK-FIXES:  ::cudaDeviceSynchronize();
  CHECK(cudaThreadSynchronize());
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:3: warning: 'cudaThreadSynchronize' is not in CUDA 13's runtime
// CHECK-FIXES:  CHECK(::cudaDeviceSynchronize());
  CHECK(::cudaThreadSynchronize());
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:3: warning: 'cudaThreadSynchronize' is not in CUDA 13's runtime
// CHECK-FIXES:  CHECK(::cudaDeviceSynchronize());
  size_t heap = 0;
  cudaThreadGetLimit(&heap, cudaLimitMallocHeapSize);
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:3: warning: 'cudaThreadGetLimit' is not in CUDA 13's runtime; CUDA 4 renamed it 'cudaDeviceGetLimit'
// CHECK-FIXES:  ::cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize);
  // `%:` is a digraph of `#`, and `:::` lexes as `::` `:`: a space first.
  int odd = 7 %cudaThreadGetLimit(&heap, cudaLimitStackSize);
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:16: warning: 'cudaThreadGetLimit' is not in CUDA 13's runtime
// CHECK-FIXES:  int odd = 7 % ::cudaDeviceGetLimit(&heap, cudaLimitStackSize);
  odd = odd ? 1 :cudaThreadGetLimit(&heap, cudaLimitStackSize);
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:18: warning: 'cudaThreadGetLimit' is not in CUDA 13's runtime
// CHECK-FIXES:  odd = odd ? 1 : ::cudaDeviceGetLimit(&heap, cudaLimitStackSize);
  cudaFuncCache cache;
  cudaThreadGetCacheConfig(&cache);
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:3: warning: 'cudaThreadGetCacheConfig' is not in CUDA 13's runtime
// CHECK-FIXES:  ::cudaDeviceGetCacheConfig(&cache);
  auto restore = [cache] { return cudaThreadSetCacheConfig(cache); };
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:35: warning: 'cudaThreadSetCacheConfig' is not in CUDA 13's runtime
// CHECK-FIXES:  auto restore = [cache] { return ::cudaDeviceSetCacheConfig(cache); };

  // The edit would change more than the call.
  CHECK_NAMED(cudaThreadSetLimit(cudaLimitMallocHeapSize, heap)); // STAYS
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:3: warning: 'cudaThreadSetLimit' is not in CUDA 13's runtime
  // CHECK-MESSAGES: k.cu:[[@LINE-2]]:3: note: no automatic fix: macro 'CHECK_NAMED' turns its argument into a string, which the new name would change too; call cudaDeviceSetLimit instead
  TWICE(cudaThreadSynchronize()); // STAYS
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:3: warning: 'cudaThreadSynchronize' is not in CUDA 13's runtime
  // CHECK-MESSAGES: k.cu:[[@LINE-2]]:3: note: no automatic fix: macro 'TWICE' uses its argument more than once, and warpfix follows one use; call cudaDeviceSynchronize instead
  SYNC_ALL(); // STAYS
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:3: warning: 'cudaThreadSynchronize' is not in CUDA 13's runtime
  // CHECK-MESSAGES: k.cu:[[@LINE-2]]:3: note: no automatic fix: the name is spelled in the body of macro 'SYNC_ALL', which other code may expand too; call cudaDeviceSynchronize instead

  // An address: the old function's was never the new one's.
  cudaError_t (*sync)(void) = &cudaThreadSynchronize; // STAYS
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:32: warning: 'cudaThreadSynchronize' is not in CUDA 13's runtime
  // CHECK-MESSAGES: k.cu:[[@LINE-2]]:32: note: no automatic fix: it is not called here: its address may be compared with the new call's, which was another function; call cudaDeviceSynchronize instead

  // What no parse compiled: a macro that drops its argument on the
  // device's side, a branch only the host takes.
  HOST_ONLY(cudaThreadExit()); // STAYS
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:13: warning: 'cudaThreadExit' is not in CUDA 13's runtime
  // CHECK-MESSAGES: k.cu:[[@LINE-2]]:13: note: not analysed: no parse of this unit compiled this call: it is in a macro's argument that the device's expansion drops or turns into text; call cudaDeviceReset instead
  (void)sync; // STAYS
  return restore() + odd;
}

inline __host__ __device__ void on_both_sides() {
  // Device code as well: no host call compiles there.
  auto later = [] { cudaThreadExit(); }; // STAYS
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:21: warning: 'cudaThreadExit' is not in CUDA 13's runtime
  // CHECK-MESSAGES: k.cu:[[@LINE-2]]:21: note: no automatic fix: 'on_both_sides' is compiled for the device too, where a call of the host's runtime does not compile; call cudaDeviceReset instead
  later(); // STAYS
}

// A template: a call that names no argument of it is the same call in every
// instantiation, and in the template as written; one that does is resolved
// only in each instantiation (argument-dependent lookup may find a
// project's function there), and is reported even where nothing
// instantiates it.
template <typename T> int finish(T value) {
  cudaThreadExit();
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:3: warning: 'cudaThreadExit' is not in CUDA 13's runtime; CUDA 4 renamed it 'cudaDeviceReset'
// CHECK-FIXES:  ::cudaDeviceReset();
  return int(value);
}
int finished = finish(1.0) + finish(2);
template <typename T> void grow(T bytes) {
  cudaThreadSetLimit(cudaLimitMallocHeapSize, bytes); // STAYS
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:3: warning: 'cudaThreadSetLimit' is not in CUDA 13's runtime
  // CHECK-MESSAGES: k.cu:[[@LINE-2]]:3: note: no automatic fix: which function this name calls depends on the template's arguments; call cudaDeviceSetLimit instead
}
template <typename T> void grow_twice(T bytes) {
  cudaThreadSetLimit(cudaLimitStackSize, bytes * 2); // STAYS
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:3: warning: 'cudaThreadSetLimit' is not in CUDA 13's runtime
  // CHECK-MESSAGES: k.cu:[[@LINE-2]]:3: note: no automatic fix: which function this name calls depends on the template's arguments; call cudaDeviceSetLimit instead
}
void grow_stack() { grow_twice(size_t(4096)); }

// The new names themselves, and a project's own function that merely looks
// alike, are not reported.
namespace mine {
int cudaThreadSynchronizeAll() { return cudaDeviceSynchronize(); }
} // namespace mine
