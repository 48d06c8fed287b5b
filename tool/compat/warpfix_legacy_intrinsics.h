// Forced into every parse by warpfix. CUDA's cuda_fp16.h declares the legacy
// shuffles of __half and __half2 only for architectures before sm_70, while
// the parse is for sm_70 or later; without these declarations legacy code
// using them would not parse, and so could not be fixed. They are exactly the
// toolkit's declarations, no more: a catch-all template would also take calls
// that nvcc gave to a project's own overload (`uint4 __shfl(uint4, unsigned,
// unsigned)`), making them ambiguous or, worse, legacy calls to rewrite into
// a `__shfl_sync` that does not exist for the type. They are never defined:
// nothing is ever compiled from them.
#pragma once
#pragma clang system_header
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
struct __half;
struct __half2;
__device__ __half2 __shfl(const __half2 var, const int delta,
                          const int width = 32);
__device__ __half2 __shfl_up(const __half2 var, const unsigned int delta,
                             const int width = 32);
__device__ __half2 __shfl_down(const __half2 var, const unsigned int delta,
                               const int width = 32);
__device__ __half2 __shfl_xor(const __half2 var, const int delta,
                              const int width = 32);
__device__ __half __shfl(const __half var, const int delta,
                         const int width = 32);
__device__ __half __shfl_up(const __half var, const unsigned int delta,
                            const int width = 32);
__device__ __half __shfl_down(const __half var, const unsigned int delta,
                              const int width = 32);
__device__ __half __shfl_xor(const __half var, const int delta,
                             const int width = 32);
#endif
