// Each declaration that warpfix stands in for CUDA 12's and 13's removed
// API parses as the last toolkits had it (types, template arguments,
// default arguments), and each use is reported: the unit is analysed clean.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --no-cache --checks=cuda-removed-api %t/k.cu 2>&1 | FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
// CHECK-DAG: translation units: 1 analysed clean
// CHECK-DAG: 54 findings in 1 file (0 fixable)
#include <cuda_surface_types.h>
// CHECK-DAG: k.cu:[[@LINE-1]]:10: warning: 'cuda_surface_types.h' is not in CUDA 13's toolkit
#include <surface_functions.h>
// CHECK-DAG: k.cu:[[@LINE-1]]:10: warning: 'surface_functions.h' is not in CUDA 13's toolkit
#include <texture_fetch_functions.h>
#include <sm_11_atomic_functions.h>
// CHECK-DAG: k.cu:[[@LINE-1]]:10: warning: 'sm_11_atomic_functions.h' is not in CUDA 13's toolkit
#include <sm_12_atomic_functions.h>
// CHECK-DAG: k.cu:[[@LINE-1]]:10: warning: 'sm_12_atomic_functions.h' is not in CUDA 13's toolkit
#include <math_functions_dbl_ptx3.h>
// CHECK-DAG: k.cu:[[@LINE-1]]:10: warning: 'math_functions_dbl_ptx3.h' is not in CUDA 13's toolkit

texture<float, cudaTextureType1D> t1;
// CHECK-DAG: k.cu:[[@LINE-1]]:35: warning: 't1' is a texture reference
texture<float2, cudaTextureType2D> t2;
// CHECK-DAG: k.cu:[[@LINE-1]]:36: warning: 't2' is a texture reference
texture<float4, cudaTextureType3D> t3;
// CHECK-DAG: k.cu:[[@LINE-1]]:36: warning: 't3' is a texture reference
texture<float, cudaTextureType1DLayered> l1;
// CHECK-DAG: k.cu:[[@LINE-1]]:42: warning: 'l1' is a texture reference
texture<float, cudaTextureType2DLayered> l2;
// CHECK-DAG: k.cu:[[@LINE-1]]:42: warning: 'l2' is a texture reference
texture<float, cudaTextureTypeCubemap> cube;
// CHECK-DAG: k.cu:[[@LINE-1]]:40: warning: 'cube' is a texture reference
texture<short2, 1, cudaReadModeNormalizedFloat> n1;
// CHECK-DAG: k.cu:[[@LINE-1]]:49: warning: 'n1' is a texture reference
texture<char1, 1, cudaReadModeNormalizedFloat> n0;
// CHECK-DAG: k.cu:[[@LINE-1]]:48: warning: 'n0' is a texture reference
surface<void, cudaSurfaceType1D> s1;
// CHECK-DAG: k.cu:[[@LINE-1]]:34: warning: 's1' is a surface reference
surface<void, cudaSurfaceType2D> s2;
// CHECK-DAG: k.cu:[[@LINE-1]]:34: warning: 's2' is a surface reference
surface<void, cudaSurfaceType3D> s3;
// CHECK-DAG: k.cu:[[@LINE-1]]:34: warning: 's3' is a surface reference

__global__ void fetch_all(float4 *out) {
  float a = tex1Dfetch(t1, 1) + tex1D(t1, 0.5f) + tex1DLod(t1, 0.5f, 1.0f) +
            tex1DGrad(t1, 0.5f, 0.1f, 0.1f);
  float2 b = tex2D(t2, 0.5f, 0.5f);
  float2 c = tex2DLod(t2, 0.5f, 0.5f, 1.0f);
  float2 d = tex2DGrad(t2, 0.5f, 0.5f, make_float2(0, 0), make_float2(0, 0));
  float2 e = tex2Dgather(t2, 0.5f, 0.5f);
  float4 f = tex3D(t3, 0.5f, 0.5f, 0.5f);
  float4 g = tex3DLod(t3, 0.5f, 0.5f, 0.5f, 1.0f);
  float h = tex1DLayered(l1, 0.5f, 2) + tex2DLayered(l2, 0.5f, 0.5f, 2) +
            texCubemap(cube, 1.0f, 0.0f, 0.0f);
  float2 normalized = tex1Dfetch(n1, 3);
  float1 one = tex1Dfetch(n0, 3);
  out[threadIdx.x] = make_float4(a + b.x + c.x + d.x + e.x + h + one.x,
                                 normalized.y, f.z, g.w);
}
// CHECK-DAG: k.cu:44:13: warning: 'tex1Dfetch' of a texture reference
// CHECK-DAG: k.cu:44:33: warning: 'tex1D' of a texture reference
// CHECK-DAG: k.cu:44:51: warning: 'tex1DLod' of a texture reference
// CHECK-DAG: k.cu:45:13: warning: 'tex1DGrad' of a texture reference
// CHECK-DAG: k.cu:46:14: warning: 'tex2D' of a texture reference
// CHECK-DAG: k.cu:47:14: warning: 'tex2DLod' of a texture reference
// CHECK-DAG: k.cu:48:14: warning: 'tex2DGrad' of a texture reference
// CHECK-DAG: k.cu:49:14: warning: 'tex2Dgather' of a texture reference
// CHECK-DAG: k.cu:50:14: warning: 'tex3D' of a texture reference
// CHECK-DAG: k.cu:51:14: warning: 'tex3DLod' of a texture reference
// CHECK-DAG: k.cu:52:13: warning: 'tex1DLayered' of a texture reference
// CHECK-DAG: k.cu:52:41: warning: 'tex2DLayered' of a texture reference
// CHECK-DAG: k.cu:53:13: warning: 'texCubemap' of a texture reference
// CHECK-DAG: k.cu:54:23: warning: 'tex1Dfetch' of a texture reference
// CHECK-DAG: k.cu:55:16: warning: 'tex1Dfetch' of a texture reference

__global__ void surfaces(float *out) {
  surf1Dwrite(1.0f, s1, 4);
  surf2Dwrite(1.0f, s2, 4, 1, cudaBoundaryModeClamp);
  surf3Dwrite(1.0f, s3, 4, 1, 1);
  float r = surf2Dread<float>(s2, 4, 1);
  float q;
  surf1Dread(&q, s1, 4);
  out[threadIdx.x] = r + q;
}
// CHECK-DAG: k.cu:76:3: warning: 'surf1Dwrite' of a surface reference
// CHECK-DAG: k.cu:77:3: warning: 'surf2Dwrite' of a surface reference
// CHECK-DAG: k.cu:78:3: warning: 'surf3Dwrite' of a surface reference
// CHECK-DAG: k.cu:79:13: warning: 'surf2Dread' of a surface reference
// CHECK-DAG: k.cu:81:3: warning: 'surf1Dread' of a surface reference

void host(cudaArray_t array, float *device, size_t bytes) {
  size_t offset;
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  cudaBindTexture(&offset, t1, device, desc, bytes);
  cudaBindTexture2D(&offset, t2, device, 16, 16, 64);
  cudaBindTexture2D(&offset, &t2, device, &desc, 16, 16, 64);
  cudaBindTextureToArray(t3, array);
  cudaBindTextureToArray(t3, array, desc);
  cudaGetTextureAlignmentOffset(&offset, t1);
  const textureReference *ref;
  cudaGetTextureReference(&ref, &t1);
  cudaBindSurfaceToArray(s2, array);
  const surfaceReference *sref;
  cudaGetSurfaceReference(&sref, &s2);
  cudaUnbindTexture(&t1);
  size_t limit;
  cudaThreadGetLimit(&limit, cudaLimitMallocHeapSize);
  cudaFuncCache cache;
  cudaThreadGetCacheConfig(&cache);
  cudaThreadSetCacheConfig(cudaFuncCachePreferL1);
  double x = 1.0;
  cudaSetDoubleForDevice(&x);
  cudaSetDoubleForHost(&x);
  cudaConfigureCall(dim3(1), dim3(32));
  cudaSetupArgument(&x, sizeof x, 0);
  cudaLaunch((const void *)fetch_all);
}
// CHECK-DAG: k.cu:93:3: warning: 'cudaBindTexture' is not in CUDA 13's runtime
// CHECK-DAG: k.cu:94:3: warning: 'cudaBindTexture2D' is not in CUDA 13's runtime
// CHECK-DAG: k.cu:95:3: warning: 'cudaBindTexture2D' is not in CUDA 13's runtime
// CHECK-DAG: k.cu:96:3: warning: 'cudaBindTextureToArray' is not in CUDA 13's runtime
// CHECK-DAG: k.cu:97:3: warning: 'cudaBindTextureToArray' is not in CUDA 13's runtime
// CHECK-DAG: k.cu:98:3: warning: 'cudaGetTextureAlignmentOffset' is not in CUDA 13's runtime
// CHECK-DAG: k.cu:100:3: warning: 'cudaGetTextureReference' is not in CUDA 13's runtime
// CHECK-DAG: k.cu:101:3: warning: 'cudaBindSurfaceToArray' is not in CUDA 13's runtime
// CHECK-DAG: k.cu:103:3: warning: 'cudaGetSurfaceReference' is not in CUDA 13's runtime
// CHECK-DAG: k.cu:104:3: warning: 'cudaUnbindTexture' is not in CUDA 13's runtime
// CHECK-DAG: k.cu:106:3: warning: 'cudaThreadGetLimit' is not in CUDA 13's runtime; CUDA 4 renamed it 'cudaDeviceGetLimit'
// CHECK-DAG: k.cu:108:3: warning: 'cudaThreadGetCacheConfig' is not in CUDA 13's runtime
// CHECK-DAG: k.cu:109:3: warning: 'cudaThreadSetCacheConfig' is not in CUDA 13's runtime
// CHECK-DAG: k.cu:111:3: warning: 'cudaSetDoubleForDevice' is not in CUDA 13's runtime
// CHECK-DAG: k.cu:111:3: note: no automatic fix: remove the call; doubles need no conversion on devices since sm_13
// CHECK-DAG: k.cu:112:3: warning: 'cudaSetDoubleForHost' is not in CUDA 13's runtime
// CHECK-DAG: k.cu:113:3: warning: 'cudaConfigureCall' is not in CUDA 13's runtime
// CHECK-DAG: k.cu:113:3: note: no automatic fix: use cudaLaunchKernel()
// CHECK-DAG: k.cu:114:3: warning: 'cudaSetupArgument' is not in CUDA 13's runtime
// CHECK-DAG: k.cu:115:3: warning: 'cudaLaunch' is not in CUDA 13's runtime
// CHECK-DAG: k.cu:76:3: note: no automatic fix: go through a cudaSurfaceObject_t (surf1Dwrite(..., object, ...))
