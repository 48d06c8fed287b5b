/* Minimal stand-in for the CUDA toolkit's host_defines.h: only what clang's
   CUDA runtime wrapper needs to parse device code. */
#pragma once
#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __align__(n) __attribute__((aligned(n)))
#define __device_builtin__
#define __cudart_builtin__
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
