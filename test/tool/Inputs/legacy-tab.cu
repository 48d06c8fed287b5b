__global__ void k(float *p) {
	float v = p[threadIdx.x];
	v += __shfl_down(v, 16);
  v += __shfl_xor(v, 1); // café
  p[threadIdx.x] = v;
}
