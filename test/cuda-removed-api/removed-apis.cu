// What CUDA 12 and 13 removed, which legacy code uses next to its warp code:
// texture and surface references, their fetches and runtime calls, the
// thread-named runtime calls, and headers. warpfix declares them so that the
// unit parses clean and its warp code is fixed; each use is reported, with
// what replaces it, and none is rewritten by default. Traps:
// texture objects, a project's own definition of a removed call, and names
// that only look alike. nvcc 13
// cannot compile this file, by design: it uses what CUDA 13 removed.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 1 %warpfix --no-cache --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=SUMMARY
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --strict-whitespace --input-file=%t/k.cu
// RUN: cp %t/k.cu %t/once.cu
// RUN: %expect-exit 1 %warpfix --no-cache --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=AGAIN
// RUN: diff %t/once.cu %t/k.cu
// RUN: %warpfix --no-cache --checks=warp-* %t/k.cu 2>&1 | FileCheck %s --check-prefix=OFF
// SUMMARY: translation units: 1 analysed clean
// SUMMARY: fixed 1 finding in 1 file; 16 remain
// AGAIN: fixed 0 findings in 0 files; 16 remain
// OFF: 0 findings in 0 files (0 fixable)
#include <device_functions_decls.h>
// CHECK-MESSAGES: k.cu:[[@LINE-1]]:10: warning: 'device_functions_decls.h' is not in CUDA 13's toolkit; this #include still needs porting [cuda-removed-api]
// CHECK-MESSAGES: k.cu:[[@LINE-2]]:10: note: no automatic fix: remove it; what it declared comes with cuda_runtime.h
#include "cuda_texture_types.h"
// CHECK-MESSAGES: k.cu:[[@LINE-1]]:10: warning: 'cuda_texture_types.h' is not in CUDA 13's toolkit
#include <sm_13_double_functions.h>
// CHECK-MESSAGES: k.cu:[[@LINE-1]]:10: warning: 'sm_13_double_functions.h' is not in CUDA 13's toolkit

texture<uint4, 1, cudaReadModeElementType> words;
// CHECK-MESSAGES: k.cu:[[@LINE-1]]:44: warning: 'words' is a texture reference, which CUDA 12 removed; this still needs porting [cuda-removed-api]
// CHECK-MESSAGES: k.cu:[[@LINE-2]]:44: note: no automatic fix: make it a cudaTextureObject_t/cudaSurfaceObject_t
static texture<float, 2> heights;
// CHECK-MESSAGES: k.cu:[[@LINE-1]]:26: warning: 'heights' is a texture reference
texture<uchar4, 2, cudaReadModeNormalizedFloat> colours;
// CHECK-MESSAGES: k.cu:[[@LINE-1]]:49: warning: 'colours' is a texture reference
surface<void, 2> canvas;
// CHECK-MESSAGES: k.cu:[[@LINE-1]]:18: warning: 'canvas' is a surface reference

// The fetches type-check as they did: the element type, or a float vector
// for normalized reads. The shuffle next to them is fixed as anywhere.
__global__ void sample(uint4 *out, int *sums) {
  uint4 w = tex1Dfetch(words, threadIdx.x);
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:13: warning: 'tex1Dfetch' of a texture reference was removed in CUDA 12; this still needs porting [cuda-removed-api]
  // CHECK-MESSAGES: k.cu:[[@LINE-2]]:13: note: no automatic fix: go through a cudaTextureObject_t (tex1Dfetch<T>(object, ...))
  float4 c = tex2D(colours, 0.5f, 0.5f);
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:14: warning: 'tex2D' of a texture reference
  int s = sums[threadIdx.x] + (int)tex2D(heights, 1.0f, 2.0f) + (int)c.x + (int)w.x;
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:36: warning: 'tex2D' of a texture reference
  s += __shfl_down(s, 1);
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:8: warning: '__shfl_down' is a legacy warp intrinsic
  sums[threadIdx.x] = s;
  out[threadIdx.x] = w;
}
// CHECK-FIXES:  s += __shfl_down_sync(0xffffffff, s, 1);

// Not reported: a texture object and its fetch, which CUDA 13 has.
__global__ void sample_object(cudaTextureObject_t object, float *out) {
  out[threadIdx.x] = tex1Dfetch<float>(object, threadIdx.x);
}

// A project's own definition of a removed call is its code, not the
// toolkit's: not reported.
cudaError_t cudaThreadExit(void) { return cudaDeviceReset(); }

void bind(uint4 *device_words, size_t bytes) {
  cudaBindTexture(0, words, device_words, bytes);
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:3: warning: 'cudaBindTexture' is not in CUDA 13's runtime (CUDA 12 removed texture and surface references); this still needs porting [cuda-removed-api]
  // CHECK-MESSAGES: k.cu:[[@LINE-2]]:3: note: no automatic fix: bind nothing; create a texture or surface object instead
  cudaBindTexture(0, &words, device_words, &words.channelDesc, bytes);
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:3: warning: 'cudaBindTexture' is not in CUDA 13's runtime
  cudaThreadSynchronize();
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:3: warning: 'cudaThreadSynchronize' is not in CUDA 13's runtime; CUDA 4 renamed it 'cudaDeviceSynchronize' [cuda-removed-api]
  // CHECK-MESSAGES: k.cu:[[@LINE-2]]:3: note: no automatic fix: the host's side of the unit, which warpfix does not parse, decides what the new name calls
  cudaThreadSetLimit(cudaLimitStackSize, 4096);
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:3: warning: 'cudaThreadSetLimit' is not in CUDA 13's runtime; CUDA 4 renamed it 'cudaDeviceSetLimit'
// CHECK-FIXES:  cudaThreadSetLimit(cudaLimitStackSize, 4096);
  cudaUnbindTexture(words);
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:3: warning: 'cudaUnbindTexture' is not in CUDA 13's runtime
  cudaThreadExit();
  cudaDeviceSynchronize();
  sample<<<1, 64>>>(nullptr, nullptr);
}

// A parameter of a texture reference's type is one too, in a template as
// well; the fetch there names no function until it is instantiated, and
// the parameter stands for it.
template <class T>
__device__ T fetch_from(texture<T, 1, cudaReadModeElementType> from, int i) {
  // CHECK-MESSAGES: k.cu:[[@LINE-1]]:64: warning: 'from' is a texture reference
  return tex1Dfetch(from, i);
}
