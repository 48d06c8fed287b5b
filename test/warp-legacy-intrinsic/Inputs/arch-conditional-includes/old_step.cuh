// Included only where __CUDA_ARCH__ < 700; it calls the includer's helper.
__device__ int oldStep(int v) { return scanStep(v); }
