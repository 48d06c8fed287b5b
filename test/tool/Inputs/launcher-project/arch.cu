__global__ void arch(unsigned *out, const int *in) {
#if __CUDA_ARCH__ >= 900
  out[threadIdx.x] = __ballot(in[threadIdx.x] > 0);
#else
  out[threadIdx.x] = __all(in[threadIdx.x] > 0);
#endif
}
