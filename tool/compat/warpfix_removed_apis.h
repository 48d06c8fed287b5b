// Forced into every parse by warpfix. CUDA 12 removed texture and surface
// references and the runtime calls that went with them, and CUDA 13 the
// thread-named runtime calls (cudaThreadSynchronize, ...) that CUDA 4 had
// renamed. Legacy code that uses them no longer parses, and the errors would
// withhold the fixes of the warp code around them. These are the last
// toolkits' own signatures, declared so that the parse can go on: none is
// defined, and nothing is ever compiled from this parse. The check
// cuda-removed-api reports every use, since each one still needs porting.
//
// Code written for CUDA 12 or later may declare its own global `texture` or
// `surface` (nvcc 11 and older declared them, as here, so legacy code could
// not). Such a declaration conflicts with these: pass
// -DWARPFIX_NO_REMOVED_APIS to warpfix (after --, or in ExtraArgs) to leave
// them out.
#pragma once
#pragma clang system_header
// The toolkit's types that the declarations name come first; a toolkit
// without them gets none.
#if defined(__CUDA_ARCH__) && !defined(WARPFIX_NO_REMOVED_APIS) &&            \
    defined(__TEXTURE_TYPES_H__) && defined(__SURFACE_TYPES_H__) &&           \
    defined(__DRIVER_TYPES_H__) && defined(__VECTOR_TYPES_H__)
#include <limits.h>

struct textureReference {
  int normalized;
  enum cudaTextureFilterMode filterMode;
  enum cudaTextureAddressMode addressMode[3];
  struct cudaChannelFormatDesc channelDesc;
  int sRGB;
  unsigned int maxAnisotropy;
  enum cudaTextureFilterMode mipmapFilterMode;
  float mipmapLevelBias;
  float minMipmapLevelClamp;
  float maxMipmapLevelClamp;
  int disableTrilinearOptimization;
  int __cudaReserved[14];
};

struct surfaceReference {
  struct cudaChannelFormatDesc channelDesc;
};

template <class T, int texType = cudaTextureType1D,
          enum cudaTextureReadMode mode = cudaReadModeElementType>
struct __attribute__((device_builtin_texture_type)) texture
    : public textureReference {
  __host__ texture(int norm = 0,
                   enum cudaTextureFilterMode fMode = cudaFilterModePoint,
                   enum cudaTextureAddressMode aMode = cudaAddressModeClamp);
  __host__ texture(int norm, enum cudaTextureFilterMode fMode,
                   enum cudaTextureAddressMode aMode,
                   struct cudaChannelFormatDesc desc);
};

template <class T, int dim = 1>
struct __attribute__((device_builtin_surface_type)) surface
    : public surfaceReference {
  __host__ surface(void);
  __host__ surface(struct cudaChannelFormatDesc desc);
};

// What a fetch returns: the element type, or for cudaReadModeNormalizedFloat
// the float vector of as many components.
template <class T> struct __warpfix_normalized { typedef float type; };
#define __WARPFIX_NORMALIZED(T, F)                                             \
  template <> struct __warpfix_normalized<T> { typedef F type; };
__WARPFIX_NORMALIZED(char1, float1)
__WARPFIX_NORMALIZED(uchar1, float1)
__WARPFIX_NORMALIZED(short1, float1)
__WARPFIX_NORMALIZED(ushort1, float1)
__WARPFIX_NORMALIZED(char2, float2)
__WARPFIX_NORMALIZED(uchar2, float2)
__WARPFIX_NORMALIZED(short2, float2)
__WARPFIX_NORMALIZED(ushort2, float2)
__WARPFIX_NORMALIZED(char4, float4)
__WARPFIX_NORMALIZED(uchar4, float4)
__WARPFIX_NORMALIZED(short4, float4)
__WARPFIX_NORMALIZED(ushort4, float4)
#undef __WARPFIX_NORMALIZED
template <class T, enum cudaTextureReadMode M> struct __warpfix_fetched {
  typedef T type;
};
template <class T> struct __warpfix_fetched<T, cudaReadModeNormalizedFloat> {
  typedef typename __warpfix_normalized<T>::type type;
};
#define __WARPFIX_FETCH(Name, Type, ...)                                       \
  template <class T, enum cudaTextureReadMode M>                               \
  __device__ typename __warpfix_fetched<T, M>::type Name(                      \
      texture<T, Type, M> t, __VA_ARGS__);
__WARPFIX_FETCH(tex1Dfetch, cudaTextureType1D, int x)
__WARPFIX_FETCH(tex1D, cudaTextureType1D, float x)
__WARPFIX_FETCH(tex2D, cudaTextureType2D, float x, float y)
__WARPFIX_FETCH(tex3D, cudaTextureType3D, float x, float y, float z)
__WARPFIX_FETCH(tex1DLayered, cudaTextureType1DLayered, float x, int layer)
__WARPFIX_FETCH(tex2DLayered, cudaTextureType2DLayered, float x, float y,
                int layer)
__WARPFIX_FETCH(texCubemap, cudaTextureTypeCubemap, float x, float y, float z)
__WARPFIX_FETCH(tex1DLod, cudaTextureType1D, float x, float level)
__WARPFIX_FETCH(tex2DLod, cudaTextureType2D, float x, float y, float level)
__WARPFIX_FETCH(tex3DLod, cudaTextureType3D, float x, float y, float z,
                float level)
__WARPFIX_FETCH(tex1DGrad, cudaTextureType1D, float x, float dPdx, float dPdy)
__WARPFIX_FETCH(tex2DGrad, cudaTextureType2D, float x, float y, float2 dPdx,
                float2 dPdy)
#undef __WARPFIX_FETCH
template <class T, enum cudaTextureReadMode M>
__device__ typename __warpfix_fetched<T, M>::type
tex2Dgather(texture<T, cudaTextureType2D, M> t, float x, float y,
            int comp = 0);

// Reads and writes through a surface reference; the mode is the boundary
// mode, as in CUDA 11.
#define __WARPFIX_SURFACE(Dims, Type, ...)                                     \
  template <class T>                                                           \
  __device__ void surf##Dims##write(                                           \
      T val, surface<void, Type> surf, __VA_ARGS__,                            \
      enum cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap);               \
  template <class T>                                                           \
  __device__ T surf##Dims##read(                                               \
      surface<void, Type> surf, __VA_ARGS__,                                   \
      enum cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap);               \
  template <class T>                                                           \
  __device__ void surf##Dims##read(                                            \
      T *res, surface<void, Type> surf, __VA_ARGS__,                           \
      enum cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap);
__WARPFIX_SURFACE(1D, cudaSurfaceType1D, int x)
__WARPFIX_SURFACE(2D, cudaSurfaceType2D, int x, int y)
__WARPFIX_SURFACE(3D, cudaSurfaceType3D, int x, int y, int z)
__WARPFIX_SURFACE(1DLayered, cudaSurfaceType1DLayered, int x, int layer)
__WARPFIX_SURFACE(2DLayered, cudaSurfaceType2DLayered, int x, int y,
                  int layer)
#undef __WARPFIX_SURFACE

extern __host__ cudaError_t cudaBindTexture(size_t *offset,
                                            const struct textureReference *texref,
                                            const void *devPtr,
                                            const struct cudaChannelFormatDesc *desc,
                                            size_t size = UINT_MAX);
extern __host__ cudaError_t
cudaBindTexture2D(size_t *offset, const struct textureReference *texref,
                  const void *devPtr, const struct cudaChannelFormatDesc *desc,
                  size_t width, size_t height, size_t pitch);
extern __host__ cudaError_t
cudaBindTextureToArray(const struct textureReference *texref,
                       cudaArray_const_t array,
                       const struct cudaChannelFormatDesc *desc);
extern __host__ cudaError_t cudaBindTextureToMipmappedArray(
    const struct textureReference *texref,
    cudaMipmappedArray_const_t mipmappedArray,
    const struct cudaChannelFormatDesc *desc);
extern __host__ cudaError_t
cudaUnbindTexture(const struct textureReference *texref);
extern __host__ cudaError_t
cudaGetTextureAlignmentOffset(size_t *offset,
                              const struct textureReference *texref);
extern __host__ cudaError_t
cudaGetTextureReference(const struct textureReference **texref,
                        const void *symbol);
extern __host__ cudaError_t
cudaBindSurfaceToArray(const struct surfaceReference *surfref,
                       cudaArray_const_t array,
                       const struct cudaChannelFormatDesc *desc);
extern __host__ cudaError_t
cudaGetSurfaceReference(const struct surfaceReference **surfref,
                        const void *symbol);

template <class T, int dim, enum cudaTextureReadMode readMode>
__host__ cudaError_t cudaBindTexture(size_t *offset,
                                     const struct texture<T, dim, readMode> &tex,
                                     const void *devPtr,
                                     const struct cudaChannelFormatDesc &desc,
                                     size_t size = UINT_MAX);
template <class T, int dim, enum cudaTextureReadMode readMode>
__host__ cudaError_t cudaBindTexture(size_t *offset,
                                     const struct texture<T, dim, readMode> &tex,
                                     const void *devPtr,
                                     size_t size = UINT_MAX);
template <class T, int dim, enum cudaTextureReadMode readMode>
__host__ cudaError_t
cudaBindTexture2D(size_t *offset, const struct texture<T, dim, readMode> &tex,
                  const void *devPtr, const struct cudaChannelFormatDesc &desc,
                  size_t width, size_t height, size_t pitch);
template <class T, int dim, enum cudaTextureReadMode readMode>
__host__ cudaError_t
cudaBindTexture2D(size_t *offset, const struct texture<T, dim, readMode> &tex,
                  const void *devPtr, size_t width, size_t height,
                  size_t pitch);
template <class T, int dim, enum cudaTextureReadMode readMode>
__host__ cudaError_t
cudaBindTextureToArray(const struct texture<T, dim, readMode> &tex,
                       cudaArray_const_t array,
                       const struct cudaChannelFormatDesc &desc);
template <class T, int dim, enum cudaTextureReadMode readMode>
__host__ cudaError_t
cudaBindTextureToArray(const struct texture<T, dim, readMode> &tex,
                       cudaArray_const_t array);
template <class T, int dim, enum cudaTextureReadMode readMode>
__host__ cudaError_t
cudaUnbindTexture(const struct texture<T, dim, readMode> &tex);
template <class T, int dim, enum cudaTextureReadMode readMode>
__host__ cudaError_t
cudaGetTextureAlignmentOffset(size_t *offset,
                              const struct texture<T, dim, readMode> &tex);
template <class T, int dim>
__host__ cudaError_t
cudaBindSurfaceToArray(const struct surface<T, dim> &surf,
                       cudaArray_const_t array,
                       const struct cudaChannelFormatDesc &desc);
template <class T, int dim>
__host__ cudaError_t cudaBindSurfaceToArray(const struct surface<T, dim> &surf,
                                            cudaArray_const_t array);

// C linkage, as the runtime declared them: a project's own `extern "C"`
// declaration of one (a shim it defines elsewhere) is then a declaration of
// the same function, not a clash.
extern "C" {
extern __host__ cudaError_t cudaThreadExit(void);
extern __host__ cudaError_t cudaThreadSynchronize(void);
extern __host__ cudaError_t cudaThreadSetLimit(enum cudaLimit limit,
                                               size_t value);
extern __host__ cudaError_t cudaThreadGetLimit(size_t *pValue,
                                               enum cudaLimit limit);
extern __host__ cudaError_t
cudaThreadGetCacheConfig(enum cudaFuncCache *pCacheConfig);
extern __host__ cudaError_t
cudaThreadSetCacheConfig(enum cudaFuncCache cacheConfig);
}
extern __host__ cudaError_t cudaSetDoubleForDevice(double *d);
extern __host__ cudaError_t cudaSetDoubleForHost(double *d);
extern __host__ cudaError_t cudaConfigureCall(dim3 gridDim, dim3 blockDim,
                                              size_t sharedMem = 0,
                                              cudaStream_t stream = 0);
extern __host__ cudaError_t cudaSetupArgument(const void *arg, size_t size,
                                              size_t offset);
extern __host__ cudaError_t cudaLaunch(const void *func);
#endif
