// Reports a finding only when parsed against the fake toolkit in
// test/Inputs/fake-cuda, so that a test can tell which toolkit was found.
#ifdef WARPFIX_FAKE_CUDA_TOOLKIT
__global__ void fake(int *p) { p[0] = __shfl(p[0], 0); }
#endif
