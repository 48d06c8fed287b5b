/* Minimal stand-in for the CUDA toolkit's cuda_runtime.h. */
#pragma once

#define WARPFIX_FAKE_VECTOR(T, N)                                              \
  struct N##1 { T x; };                                                        \
  struct N##2 { T x, y; };                                                     \
  struct N##3 { T x, y, z; };                                                  \
  struct N##4 { T x, y, z, w; };
WARPFIX_FAKE_VECTOR(signed char, char)
WARPFIX_FAKE_VECTOR(unsigned char, uchar)
WARPFIX_FAKE_VECTOR(short, short)
WARPFIX_FAKE_VECTOR(unsigned short, ushort)
WARPFIX_FAKE_VECTOR(int, int)
WARPFIX_FAKE_VECTOR(unsigned int, uint)
WARPFIX_FAKE_VECTOR(long, long)
WARPFIX_FAKE_VECTOR(unsigned long, ulong)
WARPFIX_FAKE_VECTOR(long long, longlong)
WARPFIX_FAKE_VECTOR(unsigned long long, ulonglong)
WARPFIX_FAKE_VECTOR(float, float)
WARPFIX_FAKE_VECTOR(double, double)
#undef WARPFIX_FAKE_VECTOR
struct dim3 {
  unsigned int x, y, z;
  __host__ __device__ constexpr dim3(unsigned int vx = 1, unsigned int vy = 1,
                                     unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  __host__ __device__ constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
};
typedef int cudaError_t;
typedef struct CUstream_st *cudaStream_t;
typedef unsigned long long cudaTextureObject_t;
