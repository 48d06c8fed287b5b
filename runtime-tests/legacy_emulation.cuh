// legacy_emulation.cuh: the pre-CUDA-9 warp intrinsics, with their old semantics,
// for building the ORIGINAL (un-rewritten) kernels of the runtime tests with nvcc 13.
//
// A legacy primitive ran over the lanes that happened to be active when it was
// executed; `*_sync(__activemask(), ...)` is exactly that. The runtime tests
// compare the warpfix rewrite against this emulation: both must reproduce the
// CPU reference.
//
// What nvcc 13 declares for device code of sm_70 and up (checked with
// nvcc 13.0.88, see runtime-tests/README.md):
//  - __shfl, __shfl_up, __shfl_down, __shfl_xor: not declared at all
//    ("identifier "__shfl_down" is undefined"), so they are defined here as
//    overloads. Functions rather than macros, so that `__shfl_up  (x, 1)`,
//    nested calls, and the default width behave as they did.
//  - __ballot, __any, __all: still declared, deprecated, as compiler builtins
//    that ptxas rejects ("Instruction 'vote' without '.sync' is not supported
//    on .target sm_70"). An overload with the same signature would be a
//    redefinition, so these three are function-like macros, defined after the
//    CUDA headers (which declare them) have been read.
//  The unprefixed aliases `any`, `all`, `ballot` are not emulated; the cases
//  do not use them.
//  - cudaThreadSynchronize and the other thread-named runtime calls: not
//    declared; defined below with their documented meaning.
#pragma once

#include <cuda_runtime.h>

// The thread-named runtime calls, which CUDA 13's runtime no longer declares,
// with their documented meaning: the runtime's reference says of each that
// its functionality is identical to the call that CUDA 4 renamed it to.
// Host code only; a case that defines one of them itself leaves it out with
// -DLEGACY_EMULATION_NO_THREAD_CALLS.
#ifndef LEGACY_EMULATION_NO_THREAD_CALLS
static inline cudaError_t cudaThreadExit(void) { return cudaDeviceReset(); }
static inline cudaError_t cudaThreadSynchronize(void) {
  return cudaDeviceSynchronize();
}
static inline cudaError_t cudaThreadSetLimit(enum cudaLimit limit,
                                             size_t value) {
  return cudaDeviceSetLimit(limit, value);
}
static inline cudaError_t cudaThreadGetLimit(size_t *pValue,
                                             enum cudaLimit limit) {
  return cudaDeviceGetLimit(pValue, limit);
}
static inline cudaError_t
cudaThreadGetCacheConfig(enum cudaFuncCache *pCacheConfig) {
  return cudaDeviceGetCacheConfig(pCacheConfig);
}
static inline cudaError_t
cudaThreadSetCacheConfig(enum cudaFuncCache cacheConfig) {
  return cudaDeviceSetCacheConfig(cacheConfig);
}
#endif

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700

#define LEGACY_EMULATION_SHFL(T)                                              \
  __device__ __forceinline__ T __shfl(T var, int srcLane,                     \
                                      int width = warpSize) {                 \
    return __shfl_sync(__activemask(), var, srcLane, width);                  \
  }                                                                           \
  __device__ __forceinline__ T __shfl_up(T var, unsigned int delta,           \
                                         int width = warpSize) {              \
    return __shfl_up_sync(__activemask(), var, delta, width);                 \
  }                                                                           \
  __device__ __forceinline__ T __shfl_down(T var, unsigned int delta,         \
                                           int width = warpSize) {            \
    return __shfl_down_sync(__activemask(), var, delta, width);               \
  }                                                                           \
  __device__ __forceinline__ T __shfl_xor(T var, int laneMask,                \
                                          int width = warpSize) {             \
    return __shfl_xor_sync(__activemask(), var, laneMask, width);             \
  }

// The overload set nvcc had before sm_70; `long` is there so that a long
// argument is not ambiguous between the 32- and 64-bit forms.
LEGACY_EMULATION_SHFL(int)
LEGACY_EMULATION_SHFL(unsigned int)
LEGACY_EMULATION_SHFL(long)
LEGACY_EMULATION_SHFL(unsigned long)
LEGACY_EMULATION_SHFL(long long)
LEGACY_EMULATION_SHFL(unsigned long long)
LEGACY_EMULATION_SHFL(float)
LEGACY_EMULATION_SHFL(double)

#undef LEGACY_EMULATION_SHFL

#define __ballot(predicate) __ballot_sync(__activemask(), (predicate))
#define __any(predicate) __any_sync(__activemask(), (predicate))
#define __all(predicate) __all_sync(__activemask(), (predicate))

#endif  // __CUDA_ARCH__ >= 700
