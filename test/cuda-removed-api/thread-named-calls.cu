// The thread-named runtime calls that CUDA 13 removed are renamed to the
// names CUDA 4 gave them, which the runtime's reference calls identical in
// function and which take the same parameters: one token of host code each,
// where the file spells it. Not renamed: device code, a name spelled in a
// macro's body, a project that declares the old name itself (its own shim),
// and any place outside a function. The fixed file compiles with nvcc 13.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/k.cu
// RUN: %expect-exit 1 %warpfix --no-cache %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 1 %warpfix --no-cache --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=SUMMARY
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --strict-whitespace --input-file=%t/k.cu
// RUN: cp %t/k.cu %t/once.cu
// RUN: %expect-exit 1 %warpfix --no-cache --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=AGAIN
// RUN: diff %t/once.cu %t/k.cu
// SUMMARY: translation units: 1 analysed clean
// SUMMARY: fixed 8 findings in 1 file; 4 remain
// AGAIN: fixed 0 findings in 0 files; 4 remain

// The fixed file minus the calls that stay, for nvcc: every rename
// compiles against CUDA 13's own declarations.
// RUN: grep -v 'STAYS' %t/k.cu > %t/compiles.cu
// RUN: %if nvcc %{ %nvcc-check -arch=sm_90 %t/compiles.cu %}

#include <cstdio>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t e = (call);                                                    \
    if (e != cudaSuccess)                                                      \
      std::printf("%s failed\n", #call);                                       \
  } while (0)

#define SYNC_ALL() cudaThreadSynchronize()

__global__ void kernel(int *p) { p[threadIdx.x] = threadIdx.x; }

int run(int *p) {
  kernel<<<1, 32>>>(p);
  cudaThreadSynchronize();
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:3: warning: 'cudaThreadSynchronize' is not in CUDA 13's runtime; CUDA 4 renamed it 'cudaDeviceSynchronize' [cuda-removed-api]
// CHECK-FIXES:  cudaDeviceSynchronize();
  CHECK(cudaThreadSynchronize());
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:3: warning: 'cudaThreadSynchronize' is not in CUDA 13's runtime
// CHECK-FIXES:  CHECK(cudaDeviceSynchronize());
  cudaError_t (*sync)(void) = &::cudaThreadSynchronize;
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:34: warning: 'cudaThreadSynchronize' is not in CUDA 13's runtime
// CHECK-FIXES:  cudaError_t (*sync)(void) = &::cudaDeviceSynchronize;
  size_t heap = 0;
  cudaThreadGetLimit(&heap, cudaLimitMallocHeapSize);
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:3: warning: 'cudaThreadGetLimit' is not in CUDA 13's runtime; CUDA 4 renamed it 'cudaDeviceGetLimit'
// CHECK-FIXES:  cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize);
  cudaThreadSetLimit(cudaLimitMallocHeapSize, heap * 2);
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:3: warning: 'cudaThreadSetLimit' is not in CUDA 13's runtime
// CHECK-FIXES:  cudaDeviceSetLimit(cudaLimitMallocHeapSize, heap * 2);
  cudaFuncCache cache;
  cudaThreadGetCacheConfig(&cache);
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:3: warning: 'cudaThreadGetCacheConfig' is not in CUDA 13's runtime
// CHECK-FIXES:  cudaDeviceGetCacheConfig(&cache);
  auto restore = [cache] { return cudaThreadSetCacheConfig(cache); };
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:35: warning: 'cudaThreadSetCacheConfig' is not in CUDA 13's runtime
// CHECK-FIXES:  auto restore = [cache] { return cudaDeviceSetCacheConfig(cache); };
  SYNC_ALL(); // STAYS
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:3: warning: 'cudaThreadSynchronize' is not in CUDA 13's runtime
  // CHECK-MESSAGES: k.cu:[[@LINE-2]]:3: note: no automatic fix: the name is spelled in a macro's body, which other code may expand too; use cudaDeviceSynchronize()
  return restore() + sync();
}

// Not a call in a function: a global's initializer.
static cudaError_t (*const at_exit)(void) = cudaThreadExit; // STAYS
// CHECK-MESSAGES: k.cu:[[@LINE-1]]:45: warning: 'cudaThreadExit' is not in CUDA 13's runtime; CUDA 4 renamed it 'cudaDeviceReset'
// CHECK-MESSAGES: k.cu:[[@LINE-2]]:45: note: no automatic fix: it is not in a function, and warpfix renames only in host functions; use cudaDeviceReset()

template <typename T> int finish(T value) {
  cudaThreadExit();
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:3: warning: 'cudaThreadExit' is not in CUDA 13's runtime; CUDA 4 renamed it 'cudaDeviceReset'
// CHECK-FIXES:  cudaDeviceReset();
  return int(value);
}
int finished = finish(1.0) + finish(2);

// Code compiled for the device as well: the rename would not mend a call
// there (a host function's call from device code does not compile in any
// toolkit). A lambda is compiled where the function that holds it is.
inline __host__ __device__ void on_both_sides() {
  cudaThreadSynchronize(); // STAYS
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:3: warning: 'cudaThreadSynchronize' is not in CUDA 13's runtime
  // CHECK-MESSAGES: k.cu:[[@LINE-2]]:3: note: no automatic fix: 'on_both_sides' is compiled for the device too, where a call of the host's runtime does not compile; use cudaDeviceSynchronize()
  auto later = [] { cudaThreadExit(); }; // STAYS
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:21: warning: 'cudaThreadExit' is not in CUDA 13's runtime
  // CHECK-MESSAGES: k.cu:[[@LINE-2]]:21: note: no automatic fix: 'on_both_sides' is compiled for the device too
  later(); // STAYS
}

// The new names themselves, and a project's own function that merely looks
// alike, are not reported.
namespace mine {
int cudaThreadSynchronizeAll() { return cudaDeviceSynchronize(); }
} // namespace mine
