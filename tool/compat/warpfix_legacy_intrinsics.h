// Forced into every parse by warpfix. CUDA's headers declare the legacy
// shuffles of class types (__half, __half2, ...) only for architectures before
// sm_70, while the parse is for sm_70 or later; without these declarations
// legacy code using them would not parse, and so could not be fixed. They are
// templates, so clang's own overloads for built-in types still win, and they
// are never defined: nothing is ever compiled from them.
#pragma once
#pragma clang system_header
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
template <typename T> __device__ T __shfl(T var, int srcLane, int width = 32);
template <typename T>
__device__ T __shfl_up(T var, unsigned int delta, int width = 32);
template <typename T>
__device__ T __shfl_down(T var, unsigned int delta, int width = 32);
template <typename T>
__device__ T __shfl_xor(T var, int laneMask, int width = 32);
#endif
